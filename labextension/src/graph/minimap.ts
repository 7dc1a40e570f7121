/**
 * The minimap of the graph viewer: the whole picture in small, with the part in view outlined; a press or
 * a drag on it moves the view there.
 *
 * It costs no second layout and no second copy of the SVG: the boxes of the nodes and clusters already
 * drawn (their coordinates, `svgGeometry.shapeBox`) are painted as rectangles on one canvas. They are read
 * and painted only once the minimap is shown (the picture does not fit in the view), so a drawing whose view
 * shows it whole pays nothing. Above `limit` boxes there is no minimap at all.
 * Search hits and the selected node are painted in the accent colour, so a hit far away is easy to find.
 */
import { h } from '../dom';
import type { PanZoom } from './panzoom';
import { centreAt, type IRect, type ISize } from './transform';

/** One box of the picture. */
export interface IMinimapItem {
  /** The drawn group (its `jp-mod-hit` / `jp-mod-selected` classes pick the colour). */
  el: Element;
  /** Its box in picture pixels. */
  rect: IRect;
  /** A node is filled, an open cluster outlined. */
  kind: 'node' | 'cluster';
}

/** Options of `Minimap`. */
export interface IMinimapOptions {
  /** The largest size of the minimap in CSS pixels. */
  maxWidth?: number;
  maxHeight?: number;
  /** More boxes than this: no minimap. */
  limit?: number;
}

/** The smallest side of the minimap, in CSS pixels. */
const MIN_SIDE = 24;

/** The smallest side of a painted box, in canvas pixels (a node never vanishes). */
const MIN_BOX = 1.5;

/**
 * The scale and size of the minimap of a picture of `content`, within `max`.
 */
export function minimapLayout(content: ISize, max: ISize): { scale: number; width: number; height: number } {
  if (!(content.width > 0 && content.height > 0)) {
    return { scale: 0, width: 0, height: 0 };
  }
  const scale = Math.min(max.width / content.width, max.height / content.height);
  return {
    scale,
    width: Math.max(MIN_SIDE, Math.round(content.width * scale)),
    height: Math.max(MIN_SIDE, Math.round(content.height * scale))
  };
}

/**
 * A minimap bound to a `PanZoom`; `update()` after every change of its transform.
 */
export class Minimap {
  /** The minimap element (placed by the caller, over the viewport's corner). */
  readonly element: HTMLElement;
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly limit: number;
  private readonly _canvas: HTMLCanvasElement;
  private readonly _frame: HTMLElement;
  private _items: IMinimapItem[] | null = null;
  private _count = 0;
  private _source: () => IMinimapItem[] = () => [];
  private _scale = 0;
  private _dirty = false;
  private _pointer: number | null = null;

  /**
   * A minimap of the picture `_panzoom` moves (hidden until `setSource` gives it boxes).
   */
  constructor(
    private readonly _panzoom: PanZoom,
    options: IMinimapOptions = {}
  ) {
    this.maxWidth = options.maxWidth ?? 180;
    this.maxHeight = options.maxHeight ?? 140;
    this.limit = options.limit ?? 5000;
    this._canvas = h('canvas', { class: 'jp-DynamoExplorer-minimapCanvas' });
    this._frame = h('div', { class: 'jp-DynamoExplorer-minimapFrame' });
    this.element = h(
      'div',
      {
        class: 'jp-DynamoExplorer-minimap',
        title: 'Overview: click or drag to move the view',
        attrs: { 'aria-hidden': 'true', 'data-panzoom-ignore': '' }
      },
      this._canvas,
      this._frame
    );
    this.element.hidden = true;
    this.element.addEventListener('pointerdown', this._down);
    this.element.addEventListener('pointermove', this._move);
    this.element.addEventListener('pointerup', this._up);
    this.element.addEventListener('pointercancel', this._up);
  }

  /** The boxes painted now (read once the minimap is first shown; none above the limit). */
  get items(): readonly IMinimapItem[] {
    return this._items ?? [];
  }

  /** Picture pixels to minimap pixels. */
  get scale(): number {
    return this._scale;
  }

  /**
   * A new picture of `count` boxes; `items` reads their boxes, only when the minimap is first shown (a view
   * that shows the whole picture costs nothing), and never above the limit.
   */
  setSource(count: number, items: () => IMinimapItem[]): void {
    this._count = count <= this.limit ? count : 0;
    this._source = items;
    this._items = null;
    this._dirty = true;
    this.update();
  }

  /** Colours changed (a selection, search hits): paint again when shown. */
  invalidate(): void {
    this._dirty = true;
    this.update();
  }

  /**
   * Show the minimap when the picture does not fit in the view, and outline the part in view.
   */
  update(): void {
    const content = this._panzoom.content;
    const size = this._panzoom.viewportSize();
    const show = this._count > 0 && size.width > 0 && size.height > 0 && content.width > 0 && !this._panzoom.showsAll();
    this.element.hidden = !show;
    if (!show) {
      return;
    }
    if (this._items === null) {
      this._items = this._source();
      this._dirty = true;
    }
    const layout = minimapLayout(content, { width: this.maxWidth, height: this.maxHeight });
    if (layout.scale !== this._scale) {
      this._scale = layout.scale;
      this._dirty = true;
    }
    this.element.style.width = `${layout.width}px`;
    this.element.style.height = `${layout.height}px`;
    const v = this._panzoom.visible();
    const s = this._scale;
    const x0 = Math.max(0, v.x * s);
    const y0 = Math.max(0, v.y * s);
    const x1 = Math.min(layout.width, (v.x + v.width) * s);
    const y1 = Math.min(layout.height, (v.y + v.height) * s);
    Object.assign(this._frame.style, {
      left: `${x0}px`,
      top: `${y0}px`,
      width: `${Math.max(2, x1 - x0)}px`,
      height: `${Math.max(2, y1 - y0)}px`
    });
    if (this._dirty) {
      this._dirty = false;
      this._paint(layout.width, layout.height);
    }
  }

  /** Stop listening. */
  dispose(): void {
    this.element.removeEventListener('pointerdown', this._down);
    this.element.removeEventListener('pointermove', this._move);
    this.element.removeEventListener('pointerup', this._up);
    this.element.removeEventListener('pointercancel', this._up);
  }

  /**
   * Centre the view on the picture point under a minimap point (CSS pixels from its top left).
   */
  moveTo(x: number, y: number): void {
    if (!(this._scale > 0)) {
      return;
    }
    const point = { x: x / this._scale, y: y / this._scale };
    this._panzoom.setTransform(centreAt(point, this._panzoom.transform.k, this._panzoom.viewportSize()));
  }

  /** Paint the boxes on the canvas (at the device's pixel ratio): marked ones last, in the accent colour. */
  private _paint(width: number, height: number): void {
    const ratio = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    this._canvas.width = Math.round(width * ratio);
    this._canvas.height = Math.round(height * ratio);
    this._canvas.style.width = `${width}px`;
    this._canvas.style.height = `${height}px`;
    const ctx = this._canvas.getContext('2d');
    if (!ctx) {
      return;
    }
    const style = getComputedStyle(this.element);
    const colour = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
    const node = colour('--jp-DynamoExplorer-minimap-node', '#888');
    const cluster = colour('--jp-DynamoExplorer-minimap-cluster', '#aaa');
    const accent = colour('--jp-DynamoExplorer-minimap-accent', '#1976d2');
    const s = this._scale * ratio;
    ctx.clearRect(0, 0, this._canvas.width, this._canvas.height);
    ctx.lineWidth = 1;
    const marked: IMinimapItem[] = [];
    for (const item of this._items ?? []) {
      const r = item.rect;
      if (item.el.classList.contains('jp-mod-hit') || item.el.classList.contains('jp-mod-selected')) {
        marked.push(item);
      } else if (item.kind === 'cluster') {
        ctx.strokeStyle = cluster;
        ctx.strokeRect(r.x * s, r.y * s, r.width * s, r.height * s);
      } else {
        ctx.fillStyle = node;
        ctx.fillRect(r.x * s, r.y * s, Math.max(MIN_BOX, r.width * s), Math.max(MIN_BOX, r.height * s));
      }
    }
    ctx.fillStyle = accent;
    for (const { rect: r } of marked) {
      const w = Math.max(3 * ratio, r.width * s);
      const hgt = Math.max(3 * ratio, r.height * s);
      ctx.fillRect(r.x * s + (r.width * s - w) / 2, r.y * s + (r.height * s - hgt) / 2, w, hgt);
    }
  }

  /** An event's position in minimap pixels. */
  private _local(event: PointerEvent): { x: number; y: number } {
    const box = this.element.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  /** A press moves the view there and captures the pointer for a drag. */
  private readonly _down = (event: PointerEvent): void => {
    if (event.button !== 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this._pointer = event.pointerId;
    this.element.setPointerCapture?.(event.pointerId);
    const p = this._local(event);
    this.moveTo(p.x, p.y);
  };

  /** A drag keeps moving the view. */
  private readonly _move = (event: PointerEvent): void => {
    if (event.pointerId !== this._pointer) {
      return;
    }
    const p = this._local(event);
    this.moveTo(p.x, p.y);
  };

  /** The drag ends. */
  private readonly _up = (event: PointerEvent): void => {
    if (event.pointerId === this._pointer) {
      this._pointer = null;
    }
  };
}
