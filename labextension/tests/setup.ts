/**
 * jsdom gaps the renderer's dependencies touch: DragEvent (Lumino) and scrollIntoView.
 */
if (typeof (globalThis as { DragEvent?: unknown }).DragEvent === 'undefined') {
  (globalThis as { DragEvent?: unknown }).DragEvent = class DragEvent extends MouseEvent {};
}
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = function scrollIntoView(): void {
    // jsdom has no layout; nothing to scroll.
  };
}
