/**
 * The first member name a JSON text repeats within one object, as a path (`["name"]`,
 * `["publish", 0, "x"]`), or undefined when every object's names are its own. `JSON.parse` keeps
 * the last of repeated names silently, so `{"name":"acme","name":"beta"}` would create `beta`
 * while a proxy or log that reads the first sees `acme` (RFC 8259 §4: names SHOULD be unique, and
 * parsers differ on which they keep); the API refuses such a body instead of guessing.
 *
 * Expects text `JSON.parse` accepts (a malformed body is refused before it is looked at). Names are
 * compared decoded, so `"a"` and `"\u0061"` are the same name. Hand-written: `JSON.parse` has no hook
 * that sees a repeated name, and this reads only the names of text it has already accepted.
 */
export function repeatedMember(text: string): (string | number)[] | undefined {
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      const top = frames.at(-1);
      if (top?.kind === 'object' && top.expectName) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.names.has(name)) return [...pathOf(frames), name];
        top.names.add(name);
        top.name = name;
        top.expectName = false;
      }
      i = end;
    } else if (ch === '{' || ch === '[') {
      const top = frames.at(-1);
      frames.push(ch === '{' ? { kind: 'object', names: new Set(), expectName: true, at: atOf(top) } : { kind: 'array', index: 0, at: atOf(top) });
    } else if (ch === '}' || ch === ']') {
      frames.pop();
    } else if (ch === ',') {
      const top = frames.at(-1);
      if (top?.kind === 'object') top.expectName = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}

type Frame =
  | { kind: 'object'; names: Set<string>; expectName: boolean; name?: string; at: string | number | undefined }
  | { kind: 'array'; index: number; at: string | number | undefined };

/** Where a value opening now sits in its parent: the member's name or the element's index. */
function atOf(parent: Frame | undefined): string | number | undefined {
  if (!parent) return undefined;
  return parent.kind === 'object' ? parent.name : parent.index;
}

function pathOf(frames: Frame[]): (string | number)[] {
  return frames.slice(1).map((f) => f.at as string | number);
}

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
