// Small DOM helpers. Every piece of text goes in through textContent: nothing from the server or the
// user is ever parsed as HTML.

/**
 * Create an element: el("button", {class: "tile", "aria-label": "tile Q"}, "Q", childNode).
 * Attributes are set with setAttribute (a value of null or false leaves the attribute out, true sets
 * it empty); strings among the children become text nodes.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Replace every child of `node` with `children` (strings become text). */
export function fill(node, ...children) {
  node.replaceChildren(...children.filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (typeof child === "string" || typeof child === "number" ? String(child) : child)));
}

export function byId(id) {
  return document.getElementById(id);
}
