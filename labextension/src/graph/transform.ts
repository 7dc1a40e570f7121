/**
 * The maths of zoom and pan (pure functions on a transform, tested in jsdom): points, sizes, rectangles, the
 * transform, fitting a picture or a rectangle of it in a viewport, the zoom limits, keeping the picture reachable,
 * the wheel's zoom factor and the stage's CSS transform. panzoom.ts applies them to the page.
 *
 * A transform `{x, y, k}` maps a point of the picture (CSS pixels at its natural size) to the viewport:
 * `screen = picture * k + (x, y)`.
 */
/** A point in CSS pixels. */
export interface IPoint {
  x: number;
  y: number;
}

/** A size in CSS pixels. */
export interface ISize {
  width: number;
  height: number;
}

/** A rectangle in CSS pixels. */
export interface IRect extends IPoint, ISize {}

/** Where the picture is: `screen = picture * k + (x, y)`. */
export interface ITransform {
  x: number;
  y: number;
  k: number;
}

/** The least and the greatest scale a user can zoom to. */
export interface IZoomLimits {
  min: number;
  max: number;
}

/** The transform that shows the picture at its natural size, at the top left. */
export const IDENTITY: ITransform = { x: 0, y: 0, k: 1 };

/** Zoom limits of the viewer (a fit of a bigger picture may go below `min`: see `minScale`). */
export const DEFAULT_LIMITS: IZoomLimits = { min: 0.1, max: 4 };

/** Factor of one zoom step (buttons and keys). */
export const ZOOM_STEP = 1.25;

/** How much of the picture, in pixels, always stays inside the viewport while panning. */
export const KEEP_VISIBLE = 40;

/**
 * `k` within `limits`.
 */
export function clampScale(k: number, limits: IZoomLimits): number {
  return Math.min(limits.max, Math.max(limits.min, k));
}

/**
 * Scale by `factor` keeping the viewport point `at` over the same point of the picture; the scale stays
 * within `limits`.
 */
export function zoomAt(t: ITransform, factor: number, at: IPoint, limits: IZoomLimits): ITransform {
  const k = clampScale(t.k * factor, limits);
  const ratio = k / t.k;
  return { k, x: at.x - (at.x - t.x) * ratio, y: at.y - (at.y - t.y) * ratio };
}

/**
 * The scale at which `content` fits in `viewport` with `padding` on every side (at most `maxScale`).
 */
export function fitScale(content: ISize, viewport: ISize, padding: number, maxScale = 1): number {
  const w = Math.max(1, viewport.width - 2 * padding);
  const h = Math.max(1, viewport.height - 2 * padding);
  if (!(content.width > 0 && content.height > 0)) {
    return maxScale;
  }
  return Math.min(maxScale, w / content.width, h / content.height);
}

/**
 * The transform that shows the rectangle `rect` of the picture whole and centred in `viewport`, at
 * `fitScale` kept within [minScale, maxScale].
 */
export function fitRect(
  rect: IRect,
  viewport: ISize,
  options: { padding: number; minScale?: number; maxScale?: number }
): ITransform {
  const max = options.maxScale ?? 1;
  const k = Math.max(options.minScale ?? 0, fitScale(rect, viewport, options.padding, max));
  return centreAt({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }, k, viewport);
}

/**
 * The transform that shows the whole picture centred in the viewport (fit-to-view), never above `maxScale`.
 */
export function fitTransform(content: ISize, viewport: ISize, padding: number, maxScale = 1): ITransform {
  return fitRect({ x: 0, y: 0, ...content }, viewport, { padding, maxScale });
}

/**
 * The transform at scale `k` that puts the picture point `point` at the viewport's centre.
 */
export function centreAt(point: IPoint, k: number, viewport: ISize): ITransform {
  return { k, x: viewport.width / 2 - point.x * k, y: viewport.height / 2 - point.y * k };
}

/**
 * The least scale a user may zoom out to: `limits.min`, or less when the fitted picture needs less.
 */
export function minScale(content: ISize, viewport: ISize, padding: number, limits: IZoomLimits): number {
  return Math.min(limits.min, fitScale(content, viewport, padding));
}

/**
 * `t` moved (not scaled) so that at least `keep` pixels of the picture, per axis, stay inside the viewport.
 */
export function constrain(t: ITransform, content: ISize, viewport: ISize, keep = KEEP_VISIBLE): ITransform {
  const axis = (pos: number, size: number, room: number): number => {
    const span = size * t.k;
    const margin = Math.min(keep, span, room);
    return Math.min(room - margin, Math.max(margin - span, pos));
  };
  return { k: t.k, x: axis(t.x, content.width, viewport.width), y: axis(t.y, content.height, viewport.height) };
}

/**
 * The part of the picture the viewport shows, in picture pixels.
 */
export function visibleRect(t: ITransform, viewport: ISize): IRect {
  return { x: -t.x / t.k, y: -t.y / t.k, width: viewport.width / t.k, height: viewport.height / t.k };
}

/**
 * A rectangle of the picture in viewport pixels.
 */
export function toScreen(t: ITransform, rect: IRect): IRect {
  return { x: rect.x * t.k + t.x, y: rect.y * t.k + t.y, width: rect.width * t.k, height: rect.height * t.k };
}

/**
 * Whether `inner` lies inside `outer` (with `slack` pixels of tolerance).
 */
export function contains(outer: IRect, inner: IRect, slack = 0.5): boolean {
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

/**
 * The zoom factor of one wheel event: `deltaY` in pixels, lines or pages; a pinch sends small deltas, a
 * mouse wheel notch about 100 px, which gives about one `ZOOM_STEP`.
 */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaY * (deltaMode === 1 ? 16 : deltaMode === 2 ? 400 : 1);
  return Math.exp(-Math.max(-200, Math.min(200, pixels)) * 0.0022);
}

/**
 * The CSS transform of a stage (with `transform-origin: 0 0`).
 */
export function transformCss(t: ITransform): string {
  const r = (n: number): number => Math.round(n * 1000) / 1000;
  return `translate(${r(t.x)}px, ${r(t.y)}px) scale(${r(t.k)})`;
}
