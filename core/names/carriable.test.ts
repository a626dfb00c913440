import { describe, expect, it } from 'vitest';
import { uncarriableReason } from './carriable.js';

/** What no backend can carry in a one-line value (issue 16 item 8), and what it still takes. */
describe('uncarriableReason', () => {
  it.each([
    ['plain ASCII', 'ssh-ed25519 AAAA dev@laptop', undefined],
    ['non-ASCII letters and an emoji (a surrogate pair)', 'clé de Zoë 🔑', undefined],
    ['U+00A0 no-break space', 'a\u00a0b', undefined],
    ['a newline', 'a\nb', 'contains a control character'],
    ['a carriage return', 'a\rb', 'contains a control character'],
    ['a tab', 'a\tb', 'contains a control character'],
    ['NUL', 'a\u0000b', 'contains a control character'],
    ['DEL', 'a\u007fb', 'contains a control character'],
    ['U+0085 next line (C1; a YAML line break)', 'a\u0085b', 'contains a control character'],
    ['U+009F (last C1)', 'a\u009fb', 'contains a control character'],
    ['U+2028 line separator', 'a\u2028b', 'contains a Unicode line or paragraph separator (U+2028, U+2029)'],
    ['U+2029 paragraph separator', 'a\u2029b', 'contains a Unicode line or paragraph separator (U+2028, U+2029)'],
    ['a lone high surrogate', 'a\ud800b', 'contains an unpaired UTF-16 surrogate'],
    ['a lone high surrogate at the end', 'a\ud83d', 'contains an unpaired UTF-16 surrogate'],
    ['a lone low surrogate', 'a\udc00b', 'contains an unpaired UTF-16 surrogate'],
  ])('%s', (_reason, text, want) => {
    expect(uncarriableReason(text)).toBe(want);
  });
});
