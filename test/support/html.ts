import { parse, type DefaultTreeAdapterMap, type ParserError } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
/** An element of a parsed page. */
export type Element = DefaultTreeAdapterMap["element"];

/**
 * A page parsed as a browser parses it, and what keeps it from being
 * well-formed: the parse errors parse5 reports (the tokenizer's: bad
 * attributes, stray characters in tags…) and every element not closed where
 * it should be (which a browser's tree builder repairs silently). None for a
 * well-formed page.
 */
export function parseHtml(html: string): { readonly document: DefaultTreeAdapterMap["document"]; readonly errors: readonly string[] } {
  const errors: string[] = [];
  const document = parse(html, { onParseError: (error: ParserError) => errors.push(`${error.code} at line ${error.startLine}, column ${error.startCol}`) });
  return { document, errors: [...errors, ...unbalancedTags(html)] };
}

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** End tags that close something other than the innermost open element, and elements never closed. */
export function unbalancedTags(html: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  // A style sheet's text is not markup.
  const markup = html.replace(/<style>[\s\S]*?<\/style>/g, "<style></style>");
  for (const [, closing, name, selfClosing] of markup.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(\/?)>/g)) {
    const tag = name!.toLowerCase();
    if (closing === "/") {
      const innermost = open.pop();
      if (innermost !== tag) problems.push(`</${tag}> closes <${innermost ?? "nothing"}>`);
    } else if (selfClosing !== "/" && !VOID_ELEMENTS.has(tag)) {
      open.push(tag);
    }
  }
  for (const tag of open) problems.push(`<${tag}> is never closed`);
  return problems;
}

/** Every element under `root` (in document order) with this tag name. */
export function elementsByTag(root: Node, tagName: string): Element[] {
  const found: Element[] = [];
  const visit = (node: Node): void => {
    if ("tagName" in node && node.tagName === tagName) found.push(node);
    const children = "childNodes" in node ? node.childNodes : [];
    for (const child of children) visit(child);
    // <template> keeps its children in its content.
    if ("content" in node && node.content !== undefined) visit(node.content);
  };
  visit(root);
  return found;
}

/** An element's attribute, or `undefined`. */
export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((candidate) => candidate.name === name)?.value;
}

/** The text under a node, as `textContent` gives it. */
export function textOf(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  return ("childNodes" in node ? node.childNodes : []).map(textOf).join("");
}
