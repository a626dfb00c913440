import { describe, expect, it } from 'vitest';
import { repeatedMember } from './json-members.js';

describe('repeatedMember', () => {
  it.each([
    ['distinct names', '{"name":"acme","index":3}', undefined],
    ['a name repeated', '{"name":"acme","name":"beta"}', ['name']],
    ['a name repeated through an escape', '{"name":"acme","n\\u0061me":"beta"}', ['name']],
    ['the same name in two objects', '{"a":{"x":1},"b":{"x":2}}', undefined],
    ['the same name in sibling array elements', '[{"x":1},{"x":2}]', undefined],
    ['a name repeated in a nested object', '{"a":{"x":1,"x":2}}', ['a', 'x']],
    ['a name repeated in an array element', '{"list":[{"x":1},{"y":1,"y":2}]}', ['list', 1, 'y']],
    ['names that only look alike', '{"a":1,"A":2,"a ":3}', undefined],
    ['a value equal to a name', '{"a":"a","b":"a"}', undefined],
    ['a name holding quotes, brackets and commas', '{"a\\"{,[":1,"b":[1,{"c":"}"}]}', undefined],
    ['a repeat after a nested value', '{"a":[1,[2,{"a":1}]],"b":{},"a":0}', ['a']],
    ['scalars and arrays alone', '[1,"x",null,true]', undefined],
    ['an empty object', '{}', undefined],
    ['the prototype name twice', '{"__proto__":{},"__proto__":{}}', ['__proto__']],
  ] as [string, string, (string | number)[] | undefined][])('%s', (_case, text, path) => {
    JSON.parse(text);
    expect(repeatedMember(text)).toEqual(path);
  });
});
