/**
 * The graph viewer around a picture: the viewport and its stage (zoom and pan: panzoom.ts), the zoom controls
 * (−, the zoom level, +, fit), the minimap, and the hint a plain wheel brings up. It sizes the viewport to the
 * picture (a height the user dragged is kept) and puts the first view of a drawing where it was asked
 * (`ViewRequest`) once the viewport has a size: a picture drawn in a hidden or off-screen output waits for its
 * ResizeObserver. The first view of a graph fits every box in the viewport, except a graph drawn whole that
 * would be too small to read, which starts at a readable scale on its inputs and main op. The FX pane
 * (view/panes/fxGraph.ts) draws into it.
 */
import { button, clear, h } from '../dom';
import { Minimap } from './minimap';
import { PanZoom } from './panzoom';
import { fitScale, ZOOM_STEP, type IRect, type ISize } from './transform';

/** The scale under which labels get hard to read: a graph drawn whole starts no smaller. */
export const READABLE_SCALE = 0.5;
/** The least scale at which a search hit is shown. */
export const FOCUS_SCALE = 0.75;
/** Height of the picture's viewport: at least, and at most (less on a short window). */
const MIN_HEIGHT = 200;
const MAX_HEIGHT = 720;
/** Pixels left around a fitted picture. */
const PADDING = 16;

/** Where the view goes after a drawing. */
export type ViewRequest =
  /** Fit the picture (a new graph): see READABLE_SCALE. */
  | { kind: 'initial' }
  /** Fit the picture whole. */
  | { kind: 'fit' }
  /**
   * Centre a drawn item (by DOT id): `cluster` zooms in until an opened cluster fills the view (up to the
   * natural size), `hit` zooms to at least FOCUS_SCALE (a search hit), `keep` keeps the scale.
   */
  | { kind: 'focus'; id: string; zoom: 'cluster' | 'hit' | 'keep' };

/** What the viewer needs of a picture it shows. */
export interface IViewerPicture {
  /** The picture's natural size (svgGeometry.ts). */
  readonly size: ISize;
  /** A redraw of the graph shown before (its viewport height never shrinks). */
  readonly sameGraph: boolean;
  /** The graph is drawn whole (no collapsed cluster): its first view starts readable. */
  readonly whole: boolean;
  /** The box of a drawn item by DOT id, or null. */
  boxOf(id: string): IRect | null;
  /** The box a first view of a graph drawn whole centres on (its main op), or null. */
  anchor(): IRect | null;
}

/**
 * The viewer: `element` is its viewport (it holds the stage, the zoom controls, the minimap and the hint).
 */
export class GraphViewer {
  /** The viewport (focusable: its keys zoom and pan). */
  readonly element: HTMLElement;
  /** The element the picture is drawn into, moved by the zoom and pan. */
  readonly stage: HTMLElement;
  readonly panzoom: PanZoom;
  readonly minimap: Minimap;
  private readonly _zoomLabel: HTMLElement;
  private readonly _hint: HTMLElement;
  private _hintTimer = 0;
  private _autoHeight: number | null = null;
  private _userHeight = false;
  private _heightObserver: ResizeObserver | null = null;
  private _picture: IViewerPicture | null = null;
  private _pendingView: ViewRequest | null = null;

  /**
   * Build the viewer; `maximised` says whether its pane is maximised now (then its CSS sizes the viewport, which
   * is no height the user dragged).
   */
  constructor(maximised: () => boolean) {
    this.stage = h('div', { class: 'jp-DynamoExplorer-stage' });
    this.element = h('div', {
      class: 'jp-DynamoExplorer-viewport',
      attrs: {
        tabindex: '0',
        role: 'group',
        'aria-roledescription': 'graph viewer',
        'aria-label': 'FX graph: drag or arrow keys to pan, ctrl + wheel or + and − to zoom, f to fit'
      }
    });
    this.panzoom = new PanZoom(this.element, this.stage, {
      padding: PADDING,
      onChange: () => this._viewChanged(),
      onWheelHint: () => this._showHint()
    });
    this.minimap = new Minimap(this.panzoom);
    this._zoomLabel = h('span', { class: 'jp-DynamoExplorer-zoomLabel' });
    const control = (label: string, title: string, data: string, action: () => void): HTMLButtonElement =>
      button(label, action, {
        class: 'jp-DynamoExplorer-small',
        title,
        data: { zoom: data },
        attrs: { 'aria-label': title }
      });
    const controls = h(
      'div',
      { class: 'jp-DynamoExplorer-zoomControls', attrs: { 'data-panzoom-ignore': '' } },
      control('−', 'Zoom out (−)', 'out', () => this.panzoom.zoomBy(1 / ZOOM_STEP, undefined, true)),
      this._zoomLabel,
      control('+', 'Zoom in (+)', 'in', () => this.panzoom.zoomBy(ZOOM_STEP, undefined, true)),
      control('fit', 'Fit the whole graph in view (f or 0)', 'fit', () => this.panzoom.fit(true))
    );
    this._hint = h('div', {
      class: 'jp-DynamoExplorer-zoomHint',
      text: 'ctrl + wheel (⌘ + wheel) zooms · drag pans · f fits'
    });
    this._hint.hidden = true;
    this.element.append(this.stage, controls, this.minimap.element, this._hint);
    if (typeof ResizeObserver !== 'undefined') {
      // A height the user dragged (the viewport's resize handle) is kept: no more automatic heights.
      this._heightObserver = new ResizeObserver(() => {
        if (this._pendingView) {
          this._placeView(); // drawn while hidden or off screen (no size): placed once it has one
          return;
        }
        const height = this.element.offsetHeight;
        // layout.ts: fx-graph.css sizes a maximised pane's viewport
        if (!maximised() && this._autoHeight !== null && height > 0 && Math.abs(height - this._autoHeight) > 2) {
          this._userHeight = true;
        }
      });
      this._heightObserver.observe(this.element);
    }
  }

  /** Take the picture away (the stage emptied, the minimap without boxes, no view waiting). */
  clear(): void {
    this._picture = null;
    this._pendingView = null;
    clear(this.stage);
    this.minimap.setSource(0, () => []);
  }

  /**
   * Show a drawn picture and put the view where `view` asks (now, or once the viewport has a size).
   */
  show(svg: SVGSVGElement, picture: IViewerPicture, view: ViewRequest): void {
    this._picture = picture;
    this.panzoom.setContent(picture.size);
    this._pendingView = view;
    this.element.hidden = false;
    // Placed before the picture enters the page: reading the viewport's size then lays out a page without it.
    this._placeView();
    this.stage.appendChild(svg);
  }

  /** Stop listening to the picture. */
  dispose(): void {
    window.clearTimeout(this._hintTimer);
    this._heightObserver?.disconnect();
    this.panzoom.dispose();
    this.minimap.dispose();
  }

  /**
   * Size the viewport and put the view where the last drawing asked, once the viewport has a size (a
   * picture drawn in a hidden or off-screen output waits for its ResizeObserver).
   */
  private _placeView(): void {
    const view = this._pendingView;
    const picture = this._picture;
    if (!view || !picture || !(this.element.clientWidth > 0)) {
      return;
    }
    this._pendingView = null;
    this._fitHeight(picture.size, picture.sameGraph);
    this._applyView(view, picture);
  }

  /**
   * Size the viewport to the picture: the height it takes at the width's fit (a graph drawn whole: at least
   * READABLE_SCALE, where its first view starts), within [MIN_HEIGHT, MAX_HEIGHT] (less on a short window);
   * a redraw of the same graph never shrinks it, and a height the user dragged is kept.
   */
  private _fitHeight(content: ISize, sameGraph: boolean): void {
    const width = this.element.clientWidth;
    if (this._userHeight || !(width > 0)) {
      return;
    }
    const whole = this._picture?.whole ?? false;
    const windowHeight = this.element.ownerDocument.defaultView?.innerHeight ?? MAX_HEIGHT;
    const max = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.round(windowHeight * 0.8)));
    const fitted = fitScale(content, { width, height: Infinity }, PADDING);
    const k = whole ? Math.max(fitted, Math.min(1, READABLE_SCALE)) : fitted;
    let height = Math.min(max, Math.max(MIN_HEIGHT, Math.ceil(content.height * k + 2 * PADDING)));
    if (sameGraph && this._autoHeight !== null) {
      height = Math.max(height, Math.min(max, this._autoHeight));
    }
    this._autoHeight = height;
    this.element.style.height = `${height}px`;
  }

  /** Put the view where `view` asks, on the picture just drawn. */
  private _applyView(view: ViewRequest, picture: IViewerPicture): void {
    const pz = this.panzoom;
    const size = pz.viewportSize();
    if (view.kind === 'focus') {
      const rect = picture.boxOf(view.id);
      if (rect) {
        const k = pz.transform.k;
        if (view.zoom === 'cluster') {
          pz.focus(rect, { minScale: k, maxScale: Math.max(k, 1), zoomToFit: true });
        } else {
          pz.focus(rect, {
            minScale: view.zoom === 'hit' ? FOCUS_SCALE : k,
            maxScale: view.zoom === 'hit' ? Infinity : k
          });
        }
        return;
      }
    }
    if (view.kind === 'initial' && picture.whole && size.width > 0 && size.height > 0) {
      const content = pz.content;
      if (fitScale(content, size, PADDING) < READABLE_SCALE) {
        // Drawn whole but too big to read when fitted: start readable, on the inputs (the top), across
        // centred on the first op (past a wide row of inputs), the picture's edges kept at the padding.
        const k = READABLE_SCALE;
        const width = content.width * k;
        const anchor = picture.anchor();
        const cx = anchor ? anchor.x + anchor.width / 2 : content.width / 2;
        const x =
          width + 2 * PADDING <= size.width
            ? (size.width - width) / 2
            : Math.min(PADDING, Math.max(size.width - PADDING - width, size.width / 2 - cx * k));
        pz.setTransform({ k, x, y: PADDING });
        return;
      }
    }
    pz.fit();
  }

  /** The transform changed: the zoom label and the minimap follow. */
  private _viewChanged(): void {
    this._zoomLabel.textContent = `${Math.round(this.panzoom.transform.k * 100)}%`;
    this.minimap.update();
  }

  /** Say how to zoom, for a moment, after a plain wheel over the picture scrolled the notebook. */
  private _showHint(): void {
    if (!this._hint.hidden) {
      return;
    }
    this._hint.hidden = false;
    window.clearTimeout(this._hintTimer);
    this._hintTimer = window.setTimeout(() => {
      this._hint.hidden = true;
    }, 1500);
  }
}
