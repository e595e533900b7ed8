/**
 * Makes happy-dom match browsers where DOMPurify depends on it; import it first in component
 * tests that render model output.
 *
 * DOMPurify reads node names through the getter on `Node.prototype` (so a clobbered `nodeName`
 * property cannot fool it). In browsers that getter works for every node; in happy-dom 21 it
 * returns '' and only subclasses (Element, Text, …) define the real one, so DOMPurify would see
 * every element as nameless, drop it, and stop walking the tree. This redirects the base getter
 * to the most derived one, as browsers behave.
 */
const proto = (globalThis as unknown as { Node?: { prototype: object } }).Node?.prototype;
const base = proto ? Object.getOwnPropertyDescriptor(proto, 'nodeName') : undefined;
if (proto && base?.get && base.configurable) {
  const baseGet = base.get;
  Object.defineProperty(proto, 'nodeName', {
    configurable: true,
    enumerable: base.enumerable ?? false,
    get(this: object): unknown {
      for (
        let p = Object.getPrototypeOf(this) as object | null;
        p && p !== proto;
        p = Object.getPrototypeOf(p) as object | null
      ) {
        const d = Object.getOwnPropertyDescriptor(p, 'nodeName');
        if (d?.get) return d.get.call(this);
      }
      return baseGet.call(this);
    },
  });
}
export {};

/**
 * Preact picks an event's name from the element's `on<name>` property: when `ondrop` is missing
 * (happy-dom 21 has no drag-and-drop handlers), it would listen for `Drop` instead of `drop`.
 * Browsers have these properties; declare them so Preact listens as it does there.
 */
const elementProto = (globalThis as unknown as { HTMLElement?: { prototype: object } }).HTMLElement?.prototype;
if (elementProto)
  for (const name of ['ondrop', 'ondragover', 'ondragenter', 'ondragleave'])
    if (!(name in elementProto))
      Object.defineProperty(elementProto, name, { configurable: true, writable: true, value: null });
