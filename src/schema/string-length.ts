/**
 * The length of a string as JSON Schema's `minLength` and `maxLength` count it (and TypeBox with
 * them): in Unicode code points, a surrogate pair being one, a lone surrogate one too.
 */
export function codePointCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}
