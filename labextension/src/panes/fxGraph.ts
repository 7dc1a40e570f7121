/**
 * FX graph pane: the picture (laid out in the browser by wasm graphviz) in a zoom/pan viewer with a
 * minimap, a table view, node search, and the details of a clicked node. The graph buttons list the
 * frame's Dynamo graph and its AOTAutograd graphs (joint, forward, backward, inference), all drawn by the
 * same model. Big graphs start collapsed by nn_module_stack; a click on a box lays out that box's children
 * only. The toolbar's SVG and PNG buttons download the whole picture drawn now, whatever the zoom
 * (svgExport.ts).
 *
 * The viewer (panzoom.ts, minimap.ts): the first view of a graph fits every box in the viewport, except a
 * graph drawn whole that would be too small to read, which starts at a readable scale on its inputs and main op;
 * ctrl + wheel, the +/− buttons and keys zoom, dragging and the arrows pan, `f`/`0` fit. Search highlights
 * its hits as you type and centres the first (opening the clusters it is in); Enter/↓/↑ step, Escape clears.
 */
import type { IViewContext } from '../context';
import { append, button, clear, h } from '../dom';
import { FxModel, type ICluster, type INodeItem, type Item } from '../fxmodel';
import { SearchCursor } from '../fxsearch';
import { renderDot } from '../graphviz';
import { lineColourClass } from '../linking';
import { Minimap, type IMinimapItem } from '../minimap';
import { fitScale, PanZoom, ZOOM_STEP, type IRect, type ISize } from '../panzoom';
import { ddpNote } from '../ddpSplits';
import type { DdpSplit, Frame, Graph, GraphKind } from '../schema';
import { graphGeometry, shapeBox, type IGraphGeometry } from '../svgGeometry';
import { downloadBlob, exportFileName, standaloneSvg, svgToPng } from '../svgExport';
import { nodeDetails, renderNodeTable } from './fxNode';
import { emptyState, NO_FRAME, Pane, toggle } from './pane';

/** Line-link parts of this pane (redrawn on their own, without a frame change). */
const PICTURE = 'picture';
const TABLE = 'table';
/** Largest graph for which 'expand all' is offered. */
const EXPAND_ALL_LIMIT = 1500;
/** The least pixel ratio of an exported PNG. */
const PNG_PIXEL_RATIO = 2;
/** What the details aside says until a node is clicked. */
const DETAILS_HINT = 'Click a node to see its target, args, shape and line.';
/** Most hits a search highlights and steps through (the first `CHIPS` get a result chip). */
const SEARCH_LIMIT = 500;
const CHIPS = 20;
/** Milliseconds a search waits after a keystroke before it lays out again to open a hit's clusters. */
const REVEAL_DELAY_MS = 120;
/** The scale under which labels get hard to read: a graph drawn whole starts no smaller. */
export const READABLE_SCALE = 0.5;
/** The least scale at which a search hit is shown. */
export const FOCUS_SCALE = 0.75;
/** Height of the picture's viewport: at least, and at most (less on a short window). */
const MIN_HEIGHT = 200;
const MAX_HEIGHT = 720;
/** Pixels left around a fitted picture. */
const PADDING = 16;

/** What each graph kind is called on its button, as Dynamo and AOTAutograd name them. */
export const GRAPH_KIND_LABELS: Record<GraphKind, string> = {
  dynamo: 'dynamo',
  dynamo_partial: 'partial',
  ddp_split_graph: 'DDP split',
  ddp_split_child: 'DDP piece',
  aot_joint: 'joint',
  aot_forward: 'forward',
  aot_backward: 'backward',
  aot_inference: 'inference'
};

/** The order of the graph buttons. */
const KIND_ORDER: GraphKind[] = [
  'dynamo',
  'dynamo_partial',
  'ddp_split_graph',
  'ddp_split_child',
  'aot_joint',
  'aot_forward',
  'aot_backward',
  'aot_inference'
];

/** Where the view goes after a drawing. */
type ViewRequest =
  /** Fit the picture (a new graph): see READABLE_SCALE. */
  | { kind: 'initial' }
  /** Fit the picture whole. */
  | { kind: 'fit' }
  /**
   * Centre a drawn item (by DOT id): `cluster` zooms in until an opened cluster fills the view (up to the
   * natural size), `hit` zooms to at least FOCUS_SCALE (a search hit), `keep` keeps the scale.
   */
  | { kind: 'focus'; id: string; zoom: 'cluster' | 'hit' | 'keep' };

/**
 * The FX graph pane.
 */
export class FxGraphPane extends Pane {
  private readonly _graphButtons: HTMLElement;
  private readonly _picture: HTMLElement;
  private readonly _pictureNote: HTMLElement;
  private readonly _viewport: HTMLElement;
  private readonly _stage: HTMLElement;
  private readonly _zoomLabel: HTMLElement;
  private readonly _hint: HTMLElement;
  private readonly _panzoom: PanZoom;
  private readonly _minimap: Minimap;
  private readonly _info: HTMLElement;
  private readonly _table: HTMLElement;
  private readonly _details: HTMLElement;
  private readonly _results: HTMLElement;
  private readonly _search: HTMLInputElement;
  private readonly _searchCount: HTMLElement;
  private readonly _expandAll: HTMLButtonElement;
  private readonly _exportButtons: HTMLButtonElement[];
  private readonly _models = new Map<number, FxModel>();
  private readonly _cursor = new SearchCursor<INodeItem>();
  private _graphs: Graph[] = [];
  private _graph: Graph | null = null;
  private _drawnGraph: Graph | null = null;
  private _svg: SVGSVGElement | null = null;
  private _geometry: IGraphGeometry | null = null;
  private _mode: 'picture' | 'table' = 'picture';
  private _token = 0;
  private _selected: INodeItem | null = null;
  private _nodeEls = new Map<string, Element>();
  private _itemEls = new Map<string, Element>();
  private _hitEls: Element[] = [];
  private _revealTimer = 0;
  private _hintTimer = 0;
  private _autoHeight: number | null = null;
  private _userHeight = false;
  private _heightObserver: ResizeObserver | null = null;
  private _pendingView: ViewRequest | null = null;
  private _sameGraph = false;
  private _whole = false;

  /**
   * Build the pane: toolbar, search, the viewer (viewport, stage, zoom controls, minimap), table and details.
   */
  constructor(ctx: IViewContext) {
    super(ctx, 'fx-graph');
    this._graphButtons = h('span', { class: 'jp-DynamoExplorer-graphButtons' });
    const modes = toggle<'picture' | 'table'>(
      [
        ['picture', 'picture'],
        ['table', 'table']
      ],
      'picture',
      mode => {
        this._mode = mode;
        void this._draw({ kind: 'initial' });
      }
    );
    this._search = h('input', {
      class: 'jp-DynamoExplorer-search',
      title: 'Find a node by name, target or module: Enter or ↓ next, ↑ previous, Escape clears',
      attrs: { type: 'search', placeholder: 'find node…', 'aria-label': 'find node' }
    });
    this._search.addEventListener('input', () => this._onSearch());
    this._search.addEventListener('keydown', event => this._onSearchKey(event));
    this._searchCount = h('span', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-searchCount' });
    this._expandAll = button('expand all', () => this._setAll(true), { class: 'jp-DynamoExplorer-small' });
    const collapse = button('collapse', () => this._setAll(false), { class: 'jp-DynamoExplorer-small' });
    this._exportButtons = (['svg', 'png'] as const).map(format => {
      const btn = button(format.toUpperCase(), () => void this.exportPicture(format), {
        class: 'jp-DynamoExplorer-small',
        title: `Download the whole graph drawn now as ${format.toUpperCase()}`,
        data: { export: format }
      });
      btn.disabled = true;
      return btn;
    });
    this.toolbar.append(
      this._graphButtons,
      modes.element,
      this._expandAll,
      collapse,
      this._search,
      this._searchCount,
      ...this._exportButtons
    );
    this._results = h('div', { class: 'jp-DynamoExplorer-searchResults' });
    this._info = h('div', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-graphInfo' });

    this._stage = h('div', { class: 'jp-DynamoExplorer-stage' });
    this._viewport = h('div', {
      class: 'jp-DynamoExplorer-viewport',
      attrs: {
        tabindex: '0',
        role: 'group',
        'aria-roledescription': 'graph viewer',
        'aria-label': 'FX graph: drag or arrow keys to pan, ctrl + wheel or + and − to zoom, f to fit'
      }
    });
    this._panzoom = new PanZoom(this._viewport, this._stage, {
      padding: PADDING,
      onChange: () => this._viewChanged(),
      onWheelHint: () => this._showHint()
    });
    this._minimap = new Minimap(this._panzoom);
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
      control('−', 'Zoom out (−)', 'out', () => this._panzoom.zoomBy(1 / ZOOM_STEP, undefined, true)),
      this._zoomLabel,
      control('+', 'Zoom in (+)', 'in', () => this._panzoom.zoomBy(ZOOM_STEP, undefined, true)),
      control('fit', 'Fit the whole graph in view (f or 0)', 'fit', () => this._panzoom.fit(true))
    );
    this._hint = h('div', {
      class: 'jp-DynamoExplorer-zoomHint',
      text: 'ctrl + wheel (⌘ + wheel) zooms · drag pans · f fits'
    });
    this._hint.hidden = true;
    this._viewport.append(this._stage, controls, this._minimap.element, this._hint);
    this._pictureNote = h('div', { class: 'jp-DynamoExplorer-pictureNote' });
    this._picture = h('div', { class: 'jp-DynamoExplorer-picture' }, this._pictureNote, this._viewport);
    if (typeof ResizeObserver !== 'undefined') {
      // A height the user dragged (the viewport's resize handle) is kept: no more automatic heights.
      this._heightObserver = new ResizeObserver(() => {
        if (this._pendingView) {
          this._placeView(); // drawn while hidden or off screen (no size): placed once it has one
          return;
        }
        const height = this._viewport.offsetHeight;
        const maximised = this.element.classList.contains('jp-mod-maximised'); // layout.ts: fx-graph.css sizes it
        if (!maximised && this._autoHeight !== null && height > 0 && Math.abs(height - this._autoHeight) > 2) {
          this._userHeight = true;
        }
      });
      this._heightObserver.observe(this._viewport);
    }

    this._table = h('div', { class: 'jp-DynamoExplorer-nodeTable' });
    this._details = h('aside', { class: 'jp-DynamoExplorer-nodeDetails' }, emptyState(DETAILS_HINT));
    this.body.append(
      this._results,
      this._info,
      h('div', { class: 'jp-DynamoExplorer-graphArea' }, this._picture, this._table, this._details)
    );
  }

  /**
   * Show the first dynamo graph of a frame.
   */
  protected render(frame: Frame): Promise<void> {
    return this._show(frame);
  }

  /** No frame: no graph, the '<no frame>' placeholder in the picture. */
  protected renderNoFrame(): Promise<void> {
    return this._show(null);
  }

  /** Show a frame's graphs (null: none): its Dynamo graph first, the search kept. */
  private async _show(frame: Frame | null): Promise<void> {
    const graphs = frame ? drawnGraphs(this.ctx.index.graphsOf(frame)) : [];
    this._graphs = graphs;
    this._graph = graphs.find(g => g.kind === 'dynamo' || g.kind === 'dynamo_partial') ?? graphs[0] ?? null;
    this._selected = null;
    this._renderGraphButtons(graphs);
    this.showEmpty(DETAILS_HINT, this._details);
    this._onSearch(false);
    await this._draw({ kind: 'initial' });
  }

  /**
   * Show one graph (the view has already selected its frame).
   */
  async showGraph(graphId: number): Promise<void> {
    const graph = this.ctx.index.graphs.get(graphId);
    if (!graph) {
      return;
    }
    this._graph = graph;
    this._selected = null;
    this._markGraphButton();
    this._onSearch(false);
    await this._draw({ kind: 'initial' });
  }

  /**
   * Select a node of a graph by name and centre it, drawing that graph first when another is shown (what a
   * kernel's node link does). False when the graph has no such node.
   */
  async showNode(graphId: number, nodeName: string): Promise<boolean> {
    if (this._graph?.id !== graphId || this._drawnGraph !== this._graph) {
      await this.showGraph(graphId);
    }
    const item = this.model?.byName.get(nodeName);
    if (!item) {
      return false;
    }
    await this._showHit(item, false);
    return true;
  }

  /** The model of the graph shown now. */
  get model(): FxModel | null {
    return this._graph ? this._modelOf(this._graph) : null;
  }

  /** The zoom/pan controller of the picture (tests and the benchmark read its transform). */
  get panzoom(): PanZoom {
    return this._panzoom;
  }

  /** The minimap of the picture. */
  get minimap(): Minimap {
    return this._minimap;
  }

  /** The search cursor: its hits and the current one. */
  get search(): SearchCursor<INodeItem> {
    return this._cursor;
  }

  /**
   * Download the picture drawn now as a standalone SVG or a PNG, named after its compile id and kind: the
   * whole graph at its natural size, whatever the zoom, without the dimming of a search.
   */
  async exportPicture(format: 'svg' | 'png'): Promise<void> {
    const svg = this._svg;
    const graph = this._graph;
    if (!svg || !graph || !svg.isConnected) {
      return;
    }
    const name = exportFileName(graph, this._graphs.filter(g => g.kind === graph.kind).length, format);
    try {
      const view = this.element.ownerDocument.defaultView;
      const searching = svg.classList.contains('jp-mod-searching');
      svg.classList.remove('jp-mod-searching');
      let text: string;
      try {
        text = standaloneSvg(svg, { background: view?.getComputedStyle(this._picture).backgroundColor ?? null });
      } finally {
        svg.classList.toggle('jp-mod-searching', searching);
      }
      const blob =
        format === 'svg'
          ? new Blob([text], { type: 'image/svg+xml' })
          : await svgToPng(text, Math.max(PNG_PIXEL_RATIO, view?.devicePixelRatio ?? 1));
      downloadBlob(blob, name);
      this.element.dataset.exported = name;
    } catch (error) {
      this._info.textContent = `Could not export ${name}: ${(error as Error).message}`;
    }
  }

  /**
   * Forget the pane's links and stop listening to the picture.
   */
  dispose(): void {
    window.clearTimeout(this._revealTimer);
    window.clearTimeout(this._hintTimer);
    this._heightObserver?.disconnect();
    this._panzoom.dispose();
    this._minimap.dispose();
    super.dispose();
  }

  /** One button per graph of the frame, labelled by kind (numbered when a kind repeats); none for one graph. */
  private _renderGraphButtons(graphs: Graph[]): void {
    clear(this._graphButtons);
    if (graphs.length <= 1) {
      return;
    }
    const seen = new Map<GraphKind, number>();
    for (const graph of graphs) {
      const count = graphs.filter(g => g.kind === graph.kind).length;
      const n = (seen.get(graph.kind) ?? 0) + 1;
      seen.set(graph.kind, n);
      // a DDP piece by DDPOptimizer's name for it (submod_0), as its split graph calls it
      const label =
        graph.kind === 'ddp_split_child' && graph.name
          ? graph.name
          : GRAPH_KIND_LABELS[graph.kind] + (count > 1 ? ` ${n}` : '');
      const btn = button(label, () => void this.showGraph(graph.id), {
        data: { graphId: String(graph.id), kind: graph.kind },
        class: 'jp-DynamoExplorer-small',
        title: graphTitle(graph)
      });
      this._graphButtons.appendChild(btn);
    }
    this._markGraphButton();
  }

  /** Mark the button of the graph shown. */
  private _markGraphButton(): void {
    for (const btn of Array.from(this._graphButtons.querySelectorAll('button'))) {
      const on = btn.dataset.graphId === String(this._graph?.id);
      btn.classList.toggle('jp-mod-selected', on);
      btn.setAttribute('aria-pressed', String(on));
    }
  }

  /** The cluster model of a graph, made once (it keeps the expand state). */
  private _modelOf(graph: Graph): FxModel {
    let model = this._models.get(graph.id);
    if (!model) {
      model = new FxModel(graph.nodes);
      this._models.set(graph.id, model);
    }
    return model;
  }

  /** Show a placeholder where the picture goes (no picture drawn). */
  private _pictureEmpty(text: string): void {
    this.element.dataset.state = 'empty';
    this._viewport.hidden = true;
    this._pictureNote.hidden = false;
    this.showEmpty(text, this._pictureNote);
  }

  /**
   * Draw the graph shown (picture or table) and put the view where `view` asks; a newer drawing started
   * meanwhile wins (`_token`).
   */
  private async _draw(view: ViewRequest): Promise<void> {
    const token = ++this._token;
    const graph = this._graph;
    window.clearTimeout(this._revealTimer);
    this.releaseLinks(PICTURE);
    this.releaseLinks(TABLE);
    this._setDrawn(null);
    this._nodeEls = new Map();
    this._itemEls = new Map();
    this._hitEls = [];
    this._pendingView = null;
    clear(this._stage);
    this._minimap.setSource(0, () => []);
    clear(this._pictureNote);
    clear(this._table);
    clear(this._info);
    this._picture.hidden = this._mode !== 'picture';
    this._table.hidden = this._mode !== 'table';
    this.element.dataset.graphId = graph ? String(graph.id) : '';
    this.element.dataset.graphKind = graph ? graph.kind : '';
    if (!graph) {
      this._expandAll.hidden = true;
      this._drawnGraph = null;
      this._pictureEmpty(this.frame ? '<no FX graph: this frame compiled no graph>' : NO_FRAME);
      return;
    }
    this._expandAll.hidden = graph.nodes.length > EXPAND_ALL_LIMIT;
    if (this._mode === 'table') {
      this.element.dataset.state = 'table';
      this._info.textContent = `${graphNote(graph, this.ctx.report.ddp_splits)}${graph.nodes.length} nodes`;
      this._renderTable(graph, 0);
      this._markTableRow();
      return;
    }
    this.element.dataset.state = 'drawing';
    const started = performance.now();
    let svg: SVGSVGElement;
    let items = new Map<string, Item>();
    let summary: string;
    let collapsed = 0;
    try {
      if (graph.nodes.length === 0) {
        this._pictureEmpty('<empty graph>');
        return;
      }
      const model = this._modelOf(graph);
      const result = model.toDot();
      items = result.items;
      svg = await renderDot(result.dot);
      collapsed = [...items.values()].filter(i => i.kind === 'cluster' && !model.isExpanded(i)).length;
      summary = `${graph.nodes.length} nodes · ${result.visibleCount} boxes drawn${collapsed ? ` · ${collapsed} collapsed groups: click one to open it` : ''}`;
    } catch (error) {
      if (token === this._token) {
        this.element.dataset.state = 'error';
        this._pictureEmpty(`Could not lay out the graph: ${(error as Error).message}`);
      }
      return;
    }
    if (token !== this._token) {
      return;
    }
    this.element.dataset.state = 'drawn';
    svg.classList.add('jp-DynamoExplorer-svg');
    this._wire(svg, items);
    this._setDrawn(svg);
    const newGraph = this._drawnGraph !== graph;
    this._drawnGraph = graph;
    const viewerStarted = performance.now();
    const geometry = graphGeometry(svg);
    this._geometry = geometry;
    this._panzoom.setContent(geometry.size);
    this._sameGraph = !newGraph;
    this._whole = collapsed === 0;
    this._pendingView = view;
    this._pictureNote.hidden = true;
    this._viewport.hidden = false;
    // Placed before the picture enters the page: reading the viewport's size then lays out a page without it.
    this._placeView();
    this._stage.appendChild(svg);
    this._info.textContent = `${graphNote(graph, this.ctx.report.ddp_splits)}${summary} · layout ${Math.round(performance.now() - started)} ms`;
    if (this._selected) {
      this._select(this._selected);
    }
    this._highlight();
    // Last, so the minimap paints once with the marks set above; its boxes are read only when it is shown.
    this._minimap.setSource(this._itemEls.size, () => this._minimapItems(geometry));
    // What the viewer added to this drawing (placing the view, the minimap), beside the layout's time.
    this.element.dataset.viewerMs = (performance.now() - viewerStarted).toFixed(1);
  }

  /**
   * Size the viewport and put the view where the last drawing asked, once the viewport has a size (a
   * picture drawn in a hidden or off-screen output waits for its ResizeObserver).
   */
  private _placeView(): void {
    const view = this._pendingView;
    if (!view || !this._geometry || !(this._viewport.clientWidth > 0)) {
      return;
    }
    this._pendingView = null;
    this._fitHeight(this._geometry.size, this._sameGraph);
    this._applyView(view, this._whole);
  }

  /**
   * Size the viewport to the picture: the height it takes at the width's fit (a graph drawn whole: at least
   * READABLE_SCALE, where its first view starts), within [MIN_HEIGHT, MAX_HEIGHT] (less on a short window);
   * a redraw of the same graph never shrinks it, and a height the user dragged is kept.
   */
  private _fitHeight(content: ISize, sameGraph: boolean): void {
    const width = this._viewport.clientWidth;
    if (this._userHeight || !(width > 0)) {
      return;
    }
    const whole = this._whole;
    const windowHeight = this._viewport.ownerDocument.defaultView?.innerHeight ?? MAX_HEIGHT;
    const max = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.round(windowHeight * 0.8)));
    const fitted = fitScale(content, { width, height: Infinity }, PADDING);
    const k = whole ? Math.max(fitted, Math.min(1, READABLE_SCALE)) : fitted;
    let height = Math.min(max, Math.max(MIN_HEIGHT, Math.ceil(content.height * k + 2 * PADDING)));
    if (sameGraph && this._autoHeight !== null) {
      height = Math.max(height, Math.min(max, this._autoHeight));
    }
    this._autoHeight = height;
    this._viewport.style.height = `${height}px`;
  }

  /** Put the view where `view` asks, on the picture just drawn. */
  private _applyView(view: ViewRequest, whole: boolean): void {
    const pz = this._panzoom;
    const size = pz.viewportSize();
    if (view.kind === 'focus') {
      const el = this._itemEls.get(view.id);
      const rect = el && this._geometry ? shapeBox(el, this._geometry) : null;
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
    if (view.kind === 'initial' && whole && size.width > 0 && size.height > 0) {
      const content = pz.content;
      if (fitScale(content, size, PADDING) < READABLE_SCALE) {
        // Drawn whole but too big to read when fitted: start readable, on the inputs (the top), across
        // centred on the first op (past a wide row of inputs), the picture's edges kept at the padding.
        const k = READABLE_SCALE;
        const width = content.width * k;
        const anchor = this._mainOpBox();
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

  /**
   * The box of the op the first view centres on: the drawn node, not an input, that most nodes feed (the
   * layer's main op, past a wide row of parameters); the first such node on a tie.
   */
  private _mainOpBox(): IRect | null {
    const model = this.model;
    if (!model || !this._geometry) {
      return null;
    }
    const fedBy = new Map<string, number>();
    for (const item of model.nodes) {
      for (const user of item.node.users) {
        fedBy.set(user, (fedBy.get(user) ?? 0) + 1);
      }
    }
    let best: Element | null = null;
    let most = -1;
    for (const item of model.nodes) {
      const el = this._nodeEls.get(item.node.name);
      const inputs = fedBy.get(item.node.name) ?? 0;
      if (el && item.node.op !== 'placeholder' && item.node.op !== 'get_attr' && inputs > most) {
        best = el;
        most = inputs;
      }
    }
    return best ? shapeBox(best, this._geometry) : null;
  }

  /** The transform changed: the zoom label and the minimap follow. */
  private _viewChanged(): void {
    this._zoomLabel.textContent = `${Math.round(this._panzoom.transform.k * 100)}%`;
    this._minimap.update();
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

  /** The boxes of the picture for the minimap. */
  private _minimapItems(geometry: IGraphGeometry): IMinimapItem[] {
    const out: IMinimapItem[] = [];
    for (const el of this._itemEls.values()) {
      const rect = shapeBox(el, geometry);
      if (rect) {
        out.push({ el, rect, kind: el.classList.contains('cluster') ? 'cluster' : 'node' });
      }
    }
    return out;
  }

  /** Map SVG groups back to nodes and clusters; clicks and line links. */
  private _wire(svg: SVGSVGElement, items: Map<string, Item>): void {
    const { index } = this.ctx;
    for (const g of Array.from(svg.querySelectorAll('g.node, g.cluster'))) {
      const title = g.querySelector('title');
      const id = (title?.textContent ?? '').replace(/^cluster_/, '');
      const item = items.get(id);
      if (!item) {
        continue;
      }
      this._itemEls.set(item.id, g);
      if (item.kind === 'node') {
        const node = item.node;
        g.setAttribute('data-node', node.name);
        if (title) {
          title.textContent = `${node.name}: ${node.op} ${node.target}`;
        }
        if (node.line !== null) {
          g.classList.add(lineColourClass(node.line));
        }
        this.link(g, index.lineKey(node.filename, node.line, this._inFrameFile(node.filename)), PICTURE);
        g.addEventListener('click', () => this._select(item));
        this._nodeEls.set(node.name, g);
      } else if (g.classList.contains('cluster')) {
        g.setAttribute('data-cluster', item.id);
        if (title) {
          title.textContent = `${item.key || item.label} (${item.size} nodes): click the label to collapse`;
        }
        const label = g.querySelector('text');
        label?.addEventListener('click', event => {
          event.stopPropagation();
          this._toggle(item, false);
        });
      } else {
        g.setAttribute('data-cluster', item.id);
        g.classList.add('jp-mod-collapsed');
        if (title) {
          title.textContent = `${item.key || item.label} (${item.size} nodes): click to open`;
        }
        g.addEventListener('click', () => this._toggle(item, true));
      }
    }
  }

  /** Remember the picture drawn now (null: none), which the export buttons download. */
  private _setDrawn(svg: SVGSVGElement | null): void {
    this._svg = svg;
    if (!svg) {
      this._geometry = null;
    }
    for (const btn of this._exportButtons) {
      btn.disabled = !svg;
    }
  }

  /** Whether a node's file is the cell of the frame shown (its lines link to the source pane). */
  private _inFrameFile(filename: string | null): boolean {
    const frame = this.frame;
    return !!frame && frame.code.in_cell && filename === frame.code.filename;
  }

  /** Open or close a cluster and draw again, centred on it. */
  private _toggle(cluster: ICluster, open: boolean): void {
    this.model?.setExpanded(cluster, open);
    void this._draw({ kind: 'focus', id: cluster.id, zoom: open ? 'cluster' : 'keep' });
  }

  /** Open or close every cluster ('expand all' / 'collapse') and fit the new picture. */
  private _setAll(open: boolean): void {
    const model = this.model;
    if (!model) {
      return;
    }
    const walk = (c: ICluster): void => {
      model.setExpanded(c, open);
      for (const child of c.children) {
        if (child.kind === 'cluster') {
          walk(child);
        }
      }
    };
    for (const child of model.root.children) {
      if (child.kind === 'cluster') {
        walk(child);
      }
    }
    void this._draw({ kind: 'fit' });
  }

  /**
   * The query changed: new hits, highlighted in the picture, with result chips; the first hit is selected
   * and centred (`go`: false when a new graph is about to be drawn anyway).
   */
  private _onSearch(go = true): void {
    clear(this._results);
    const model = this.model;
    const query = this._search.value;
    const first = this._cursor.set(model ? model.search(query, SEARCH_LIMIT) : []);
    const hits = this._cursor.hits;
    for (const item of hits.slice(0, CHIPS)) {
      this._results.appendChild(
        button(`${item.node.name} · ${item.node.target}`, () => this._goTo(item), {
          class: 'jp-DynamoExplorer-small',
          data: { node: item.node.name }
        })
      );
    }
    if (hits.length > CHIPS) {
      this._results.appendChild(
        h('span', { class: 'jp-DynamoExplorer-muted', text: `${hits.length - CHIPS} more: Enter or ↓ steps through` })
      );
    }
    if (query.trim() && hits.length === 0) {
      this._results.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: 'no node matches' }));
    }
    this._searchCount.textContent = this._cursor.label();
    this._highlight();
    if (go && first) {
      void this._showHit(first, true);
    }
  }

  /** Keys of the search box: Enter/↓ next hit, shift+Enter/↑ previous, Escape clears. */
  private _onSearchKey(event: KeyboardEvent): void {
    let delta = 0;
    if (event.key === 'Enter') {
      delta = event.shiftKey ? -1 : 1;
    } else if (event.key === 'ArrowDown') {
      delta = 1;
    } else if (event.key === 'ArrowUp') {
      delta = -1;
    } else if (event.key === 'Escape') {
      if (this._search.value) {
        this._search.value = '';
        this._onSearch(false);
      }
      event.preventDefault();
      event.stopPropagation();
      return;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const hit = this._cursor.step(delta);
    this._searchCount.textContent = this._cursor.label();
    if (hit) {
      void this._showHit(hit, false);
    }
  }

  /** A result chip: its node becomes the current hit. */
  private _goTo(item: INodeItem): void {
    this._cursor.moveTo(item);
    this._searchCount.textContent = this._cursor.label();
    void this._showHit(item, false);
  }

  /**
   * Select a hit and centre it; when it is inside a collapsed cluster, open the clusters and lay out again
   * (after REVEAL_DELAY_MS while typing, so a burst of keystrokes lays out once). Resolves when it is shown
   * (while typing: when the layout is scheduled).
   */
  private async _showHit(item: INodeItem, typing: boolean): Promise<void> {
    window.clearTimeout(this._revealTimer);
    const model = this.model;
    if (!model) {
      return;
    }
    if (this._mode === 'table') {
      this._select(item);
      this._markTableRow();
      return;
    }
    const el = model.visibleItemOf(item) === item ? this._nodeEls.get(item.node.name) : undefined;
    if (el && this._geometry) {
      this._select(item);
      const rect = shapeBox(el, this._geometry);
      if (rect) {
        this._panzoom.focus(rect, { minScale: FOCUS_SCALE });
      }
      return;
    }
    this._selected = item;
    this.element.dataset.state = 'drawing';
    const reveal = (): Promise<void> => {
      model.reveal(item);
      return this._draw({ kind: 'focus', id: item.id, zoom: 'hit' });
    };
    if (typing) {
      this._revealTimer = window.setTimeout(() => void reveal(), REVEAL_DELAY_MS);
    } else {
      await reveal();
    }
  }

  /** Classes of the search: every hit's drawn box (or the collapsed cluster holding it) is a hit, the rest dims. */
  private _highlight(): void {
    for (const el of this._hitEls) {
      el.classList.remove('jp-mod-hit');
    }
    this._hitEls = [];
    const model = this.model;
    const svg = this._svg;
    if (!svg || !model) {
      return;
    }
    for (const hit of this._cursor.hits) {
      const el = this._itemEls.get(model.visibleItemOf(hit).id);
      if (el && !el.classList.contains('jp-mod-hit')) {
        el.classList.add('jp-mod-hit');
        this._hitEls.push(el);
      }
    }
    svg.classList.toggle('jp-mod-searching', this._cursor.hits.length > 0);
    this._minimap.invalidate();
  }

  /** Select a node: its box marked, its details shown, the minimap's mark moved. */
  private _select(item: INodeItem): void {
    this._selected = item;
    for (const [name, el] of this._nodeEls) {
      el.classList.toggle('jp-mod-selected', name === item.node.name);
    }
    clear(this._details);
    append(this._details, ...nodeDetails(this.ctx, this.frame, item.node));
    this._minimap.invalidate();
  }

  /** In the table view, mark and show the row of the selected node. */
  private _markTableRow(): void {
    const name = this._selected?.node.name;
    for (const row of Array.from(this._table.querySelectorAll<HTMLElement>('tr[data-node]'))) {
      const on = row.dataset.node === name;
      row.classList.toggle('jp-mod-selected', on);
      if (on && typeof row.scrollIntoView === 'function') {
        row.scrollIntoView({ block: 'nearest' });
      }
    }
  }

  /** A page of the node table. */
  private _renderTable(graph: Graph, from: number): void {
    renderNodeTable(
      this.ctx,
      this._table,
      this._modelOf(graph),
      from,
      (el, key) => this.link(el, key, TABLE),
      filename => this._inFrameFile(filename),
      item => this._select(item)
    );
  }
}

/** The graphs of a frame the pane draws: Dynamo's (or its partial graph), then the AOT graphs, in KIND_ORDER. */
export function drawnGraphs(graphs: Graph[]): Graph[] {
  return graphs
    .map((g, i) => [g, i] as const)
    .sort(([a, i], [b, j]) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || i - j)
    .map(([g]) => g);
}

/** The tooltip of a graph button. */
function graphTitle(graph: Graph): string {
  switch (graph.kind) {
    case 'dynamo':
      return `Dynamo graph${graph.name ? ` ${graph.name}` : ''} (torch-level ops)`;
    case 'dynamo_partial':
      return 'Partial Dynamo graph: traced before the error, never compiled';
    case 'ddp_split_graph':
      return "DDPOptimizer's split graph: the Dynamo graph cut at DDP's bucket boundaries, calling each piece in turn";
    case 'ddp_split_child':
      return `${graph.name ?? 'A piece'}: a piece of the Dynamo graph (one DDP bucket's parameters), compiled by the backend on its own`;
    default:
      return `AOTAutograd ${GRAPH_KIND_LABELS[graph.kind]} graph (aten ops)`;
  }
}

/** A line that says what a graph is when it is not a compiled Dynamo graph. */
function graphNote(graph: Graph, splits: DdpSplit[] | undefined): string {
  if (graph.kind === 'dynamo_partial') {
    return 'partial graph: traced before the error, never compiled · ';
  }
  if (graph.kind === 'ddp_split_graph' || graph.kind === 'ddp_split_child') {
    return ddpNote(graph, splits ?? []);
  }
  return graph.kind === 'dynamo' ? '' : `AOTAutograd ${GRAPH_KIND_LABELS[graph.kind]} graph · `;
}
