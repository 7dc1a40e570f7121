/**
 * Zoom and pan of a picture inside a fixed viewport: `PanZoom` applies a transform (transform.ts, the maths) to
 * a stage element and listens to the user. It writes the transform as the CSS transform of the stage (origin
 * 0 0), so the picture's own element (the graphviz SVG) is never changed and an export still gets the whole graph.
 *
 * Input, chosen so the notebook keeps its own gestures:
 * - ctrl/cmd + wheel (and a trackpad pinch, which browsers send as ctrl + wheel) zooms at the pointer; a
 *   plain wheel scrolls the notebook as usual, and `onWheelHint` is told so the viewer can say how to zoom;
 * - dragging pans (a click that did not move stays a click); two touch pointers pinch-zoom;
 * - keys act only while the viewport has focus (it is focusable): `+`/`=` and `-` zoom, `0` and `f` fit,
 *   the arrows pan (shift: farther). Handled keys stop there; every other key reaches the notebook.
 */
import {
  centreAt,
  constrain,
  contains,
  DEFAULT_LIMITS,
  fitScale,
  fitTransform,
  IDENTITY,
  minScale,
  toScreen,
  transformCss,
  visibleRect,
  wheelFactor,
  ZOOM_STEP,
  zoomAt,
  type IPoint,
  type IRect,
  type ISize,
  type ITransform,
  type IZoomLimits
} from './transform';

/** Options of `PanZoom`. */
export interface IPanZoomOptions {
  /** Zoom limits (`DEFAULT_LIMITS`). */
  limits?: IZoomLimits;
  /** Pixels left around a fitted picture. */
  padding?: number;
  /** The largest scale fit-to-view uses (1: a small picture is not blown up). */
  maxFitScale?: number;
  /** The viewport's size; by default its client size (a test with no layout passes its own). */
  size?: () => ISize;
  /** Called after every change of the transform. */
  onChange?: (t: ITransform) => void;
  /** Called when a plain wheel (no ctrl) scrolled over the picture: the notebook scrolled, not the view. */
  onWheelHint?: () => void;
}

/** Pixels a pointer must move before a press becomes a drag (less stays a click). */
const DRAG_THRESHOLD = 4;

/** Fraction of the viewport an arrow key pans (with shift: `PAN_KEY_FAR`). */
const PAN_KEY = 0.15;
const PAN_KEY_FAR = 0.6;

/** Milliseconds without input after which a gesture has ended (and the picture is painted sharp again). */
const MOVING_REST_MS = 180;

/** A pointer held down on the viewport. */
interface IPress {
  start: IPoint;
  last: IPoint;
}

/**
 * Zoom and pan of `stage` inside `viewport` (see the module's doc for the input).
 */
export class PanZoom {
  readonly limits: IZoomLimits;
  readonly padding: number;
  readonly maxFitScale: number;
  private _t: ITransform = { ...IDENTITY };
  private _content: ISize = { width: 0, height: 0 };
  private _fitted = false;
  private _pendingFit = false;
  private _dragging = false;
  private _suppressClick = false;
  private readonly _presses = new Map<number, IPress>();
  private _pinch: { distance: number; k: number } | null = null;
  private readonly _size: () => ISize;
  private readonly _onChange: (t: ITransform) => void;
  private readonly _onWheelHint: () => void;
  private readonly _resize: ResizeObserver | null = null;
  private _animateTimer = 0;
  private _movingTimer = 0;

  /**
   * Listen to `viewport` and move `stage` (its child holding the picture).
   */
  constructor(
    readonly viewport: HTMLElement,
    readonly stage: HTMLElement,
    options: IPanZoomOptions = {}
  ) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.padding = options.padding ?? 16;
    this.maxFitScale = options.maxFitScale ?? 1;
    this._size = options.size ?? (() => ({ width: viewport.clientWidth, height: viewport.clientHeight }));
    this._onChange = options.onChange ?? (() => undefined);
    this._onWheelHint = options.onWheelHint ?? (() => undefined);
    stage.style.transformOrigin = '0 0';
    viewport.addEventListener('wheel', this._wheel, { passive: false });
    viewport.addEventListener('pointerdown', this._pointerDown);
    viewport.addEventListener('pointermove', this._pointerMove);
    viewport.addEventListener('pointerup', this._pointerUp);
    viewport.addEventListener('pointercancel', this._pointerUp);
    viewport.addEventListener('click', this._click, true);
    viewport.addEventListener('keydown', this._keydown);
    if (typeof ResizeObserver !== 'undefined') {
      this._resize = new ResizeObserver(() => this._resized());
      this._resize.observe(viewport);
    }
  }

  /** The transform shown now. */
  get transform(): ITransform {
    return { ...this._t };
  }

  /** The picture's natural size. */
  get content(): ISize {
    return { ...this._content };
  }

  /** Whether the view is the fitted one (the user has not moved it since the last fit). */
  get fitted(): boolean {
    return this._fitted;
  }

  /** The viewport's size now. */
  viewportSize(): ISize {
    return this._size();
  }

  /** The part of the picture shown now, in picture pixels. */
  visible(): IRect {
    return visibleRect(this._t, this.viewportSize());
  }

  /** Whether the whole picture is in view. */
  showsAll(): boolean {
    const size = this.viewportSize();
    return contains({ x: 0, y: 0, ...size }, toScreen(this._t, { x: 0, y: 0, ...this._content }));
  }

  /**
   * A new picture of `size` (its natural size) is on the stage; the transform is kept until the caller
   * sets one.
   */
  setContent(size: ISize): void {
    this._content = { ...size };
  }

  /**
   * Show `t` (moved so that the picture stays reachable); `animate` eases discrete moves (buttons, keys,
   * search), never drags or wheels.
   */
  setTransform(t: ITransform, animate = false): void {
    const size = this.viewportSize();
    const next = size.width > 0 && size.height > 0 ? constrain(t, this._content, size) : t;
    this._t = next;
    this._fitted = false;
    this._apply(animate);
  }

  /**
   * Zoom by `factor` at a viewport point (the centre unless told).
   */
  zoomBy(factor: number, at?: IPoint, animate = false): void {
    const size = this.viewportSize();
    const limits = { min: minScale(this._content, size, this.padding, this.limits), max: this.limits.max };
    this.setTransform(zoomAt(this._t, factor, at ?? { x: size.width / 2, y: size.height / 2 }, limits), animate);
  }

  /** Move the view by screen pixels. */
  panBy(dx: number, dy: number, animate = false): void {
    this.setTransform({ ...this._t, x: this._t.x + dx, y: this._t.y + dy }, animate);
  }

  /**
   * Fit the whole picture in the viewport. Returns false when the viewport has no size yet (hidden): the fit
   * then happens as soon as it gets one.
   */
  fit(animate = false): boolean {
    const size = this.viewportSize();
    if (!(size.width > 0 && size.height > 0)) {
      this._pendingFit = true;
      return false;
    }
    this._pendingFit = false;
    this._t = fitTransform(this._content, size, this.padding, this.maxFitScale);
    this._fitted = true;
    this._apply(animate);
    return true;
  }

  /**
   * Centre a rectangle of the picture in the view at the current scale kept within [minScale, maxScale]
   * (`fitRect` when `zoomToFit`: as large as fits, within the same bounds).
   */
  focus(
    rect: IRect,
    options: { minScale?: number; maxScale?: number; zoomToFit?: boolean } = {},
    animate = true
  ): void {
    const size = this.viewportSize();
    if (!(size.width > 0 && size.height > 0)) {
      return;
    }
    const lo = options.minScale ?? 0;
    const hi = Math.max(lo, options.maxScale ?? Infinity);
    const wanted = options.zoomToFit ? fitScale(rect, size, this.padding, hi) : this._t.k;
    const k = Math.min(hi, Math.max(lo, wanted));
    this.setTransform(centreAt({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }, k, size), animate);
  }

  /**
   * Stop listening.
   */
  dispose(): void {
    window.clearTimeout(this._animateTimer);
    window.clearTimeout(this._movingTimer);
    this._resize?.disconnect();
    this.viewport.removeEventListener('wheel', this._wheel);
    this.viewport.removeEventListener('pointerdown', this._pointerDown);
    this.viewport.removeEventListener('pointermove', this._pointerMove);
    this.viewport.removeEventListener('pointerup', this._pointerUp);
    this.viewport.removeEventListener('pointercancel', this._pointerUp);
    this.viewport.removeEventListener('click', this._click, true);
    this.viewport.removeEventListener('keydown', this._keydown);
  }

  /**
   * Mark the stage as moving during a gesture (drag, wheel, pinch): the browser then moves and scales its
   * current raster (`will-change: transform` in the CSS) instead of painting a big SVG again every frame,
   * and paints it sharp once the gesture has rested for `MOVING_REST_MS`.
   */
  private _moving(): void {
    this.stage.classList.add('jp-mod-moving');
    window.clearTimeout(this._movingTimer);
    this._movingTimer = window.setTimeout(() => this.stage.classList.remove('jp-mod-moving'), MOVING_REST_MS);
  }

  /** Write the transform on the stage (eased or not) and tell the listener. */
  private _apply(animate: boolean): void {
    const stage = this.stage;
    window.clearTimeout(this._animateTimer);
    stage.classList.toggle('jp-mod-animate', animate);
    if (animate) {
      this._animateTimer = window.setTimeout(() => stage.classList.remove('jp-mod-animate'), 250);
    }
    stage.style.transform = transformCss(this._t);
    this.viewport.dataset.scale = String(Math.round(this._t.k * 1000) / 1000);
    this._onChange(this.transform);
  }

  /** Keep the view across a resize: a fitted view (or one waiting for a size) fits again, others stay put. */
  private _resized(): void {
    const size = this.viewportSize();
    if (!(size.width > 0 && size.height > 0)) {
      return;
    }
    if (this._pendingFit || this._fitted) {
      this.fit();
    } else {
      this.setTransform(this._t);
    }
  }

  /** An event's position in viewport pixels. */
  private _point(event: MouseEvent): IPoint {
    const box = this.viewport.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  /** ctrl/cmd + wheel (or a pinch) zooms at the pointer; a plain wheel is left to the page. */
  private readonly _wheel = (event: WheelEvent): void => {
    if (!(event.ctrlKey || event.metaKey)) {
      this._onWheelHint();
      return;
    }
    event.preventDefault();
    this._moving();
    this.zoomBy(wheelFactor(event.deltaY, event.deltaMode), this._point(event));
  };

  /** A press: focus the picture (for its keys) and remember the pointer; a second one starts a pinch. */
  private readonly _pointerDown = (event: PointerEvent): void => {
    if (event.button !== 0 || (event.target as Element | null)?.closest?.('[data-panzoom-ignore]')) {
      return;
    }
    this.viewport.focus({ preventScroll: true });
    const p = this._point(event);
    this._presses.set(event.pointerId, { start: p, last: p });
    this._suppressClick = false;
    if (this._presses.size === 2) {
      const [a, b] = Array.from(this._presses.values());
      this._pinch = { distance: Math.hypot(a.last.x - b.last.x, a.last.y - b.last.y), k: this._t.k };
    }
  };

  /** A move: a drag once past the threshold (pans), or a pinch (zooms at the pointers' middle). */
  private readonly _pointerMove = (event: PointerEvent): void => {
    const press = this._presses.get(event.pointerId);
    if (!press) {
      return;
    }
    const p = this._point(event);
    if (!this._dragging && !this._pinch && Math.hypot(p.x - press.start.x, p.y - press.start.y) < DRAG_THRESHOLD) {
      return;
    }
    const dx = p.x - press.last.x;
    const dy = p.y - press.last.y;
    press.last = p;
    if (this._pinch && this._presses.size >= 2) {
      const [a, b] = Array.from(this._presses.values());
      const distance = Math.hypot(a.last.x - b.last.x, a.last.y - b.last.y);
      this._moving();
      if (this._pinch.distance > 0) {
        const mid = { x: (a.last.x + b.last.x) / 2, y: (a.last.y + b.last.y) / 2 };
        this.zoomBy((this._pinch.k * distance) / this._pinch.distance / this._t.k, mid);
      }
      this._dragging = true;
      return;
    }
    if (!this._dragging) {
      this._dragging = true;
      this.viewport.classList.add('jp-mod-dragging');
      // Captured only once it is a drag: a captured press would turn a click on a node into one on the viewport.
      this.viewport.setPointerCapture?.(event.pointerId);
    }
    this._moving();
    this.panBy(dx, dy);
  };

  /** A release: the end of a drag swallows the click that follows it. */
  private readonly _pointerUp = (event: PointerEvent): void => {
    if (!this._presses.delete(event.pointerId)) {
      return;
    }
    if (this._presses.size < 2) {
      this._pinch = null;
    }
    if (this._presses.size === 0 && this._dragging) {
      this._dragging = false;
      this._suppressClick = true;
      this.viewport.classList.remove('jp-mod-dragging');
    }
  };

  /** A click that ends a drag is swallowed (it would select a node or open a cluster). */
  private readonly _click = (event: MouseEvent): void => {
    if (this._suppressClick) {
      this._suppressClick = false;
      event.stopPropagation();
      event.preventDefault();
    }
  };

  /** The picture's keys, only while the viewport itself has focus and no modifier but shift is held. */
  private readonly _keydown = (event: KeyboardEvent): void => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target !== this.viewport) {
      return;
    }
    const size = this.viewportSize();
    const step = event.shiftKey ? PAN_KEY_FAR : PAN_KEY;
    switch (event.key) {
      case '+':
      case '=':
        this.zoomBy(ZOOM_STEP, undefined, true);
        break;
      case '-':
      case '_':
        this.zoomBy(1 / ZOOM_STEP, undefined, true);
        break;
      case '0':
      case 'f':
      case 'F':
        this.fit(true);
        break;
      case 'ArrowLeft':
        this.panBy(size.width * step, 0, true);
        break;
      case 'ArrowRight':
        this.panBy(-size.width * step, 0, true);
        break;
      case 'ArrowUp':
        this.panBy(0, size.height * step, true);
        break;
      case 'ArrowDown':
        this.panBy(0, -size.height * step, true);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };
}
