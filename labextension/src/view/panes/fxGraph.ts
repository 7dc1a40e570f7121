/**
 * FX graph pane: the picture (laid out in the browser by wasm graphviz) in a zoom/pan viewer with a
 * minimap, a table view, node search, and the details of a clicked node. The graph buttons list the
 * frame's Dynamo graph and its AOTAutograd graphs (joint, forward, backward, inference), all drawn by the
 * same model (fxGraphKinds.ts). Big graphs start collapsed by nn_module_stack; a click on a box lays out that
 * box's children only (fxPicture.ts maps the drawn boxes back to the model). The toolbar's SVG and PNG buttons
 * download the whole picture drawn now, whatever the zoom (svgExport.ts).
 *
 * The viewer (graph/viewer.ts: zoom and pan, the minimap, the first view): ctrl + wheel, the +/− buttons and
 * keys zoom, dragging and the arrows pan, `f`/`0` fit. Search (fxSearchBar.ts) highlights its hits as you type
 * and centres the first (opening the clusters it is in); Enter/↓/↑ step, Escape clears.
 */
import type { IViewContext } from '../context';
import { append, button, clear, h } from '../../dom';
import { FxModel, type ICluster, type INodeItem, type Item } from '../../graph/fxmodel';
import type { SearchCursor } from '../../graph/fxsearch';
import { renderDot } from '../../graph/graphviz';
import type { Minimap } from '../../graph/minimap';
import type { PanZoom } from '../../graph/panzoom';
import { downloadBlob, exportFileName } from '../../graph/svgExport';
import { FOCUS_SCALE, GraphViewer, type ViewRequest } from '../../graph/viewer';
import type { Frame, Graph } from '../../schema';
import { drawnGraphs, graphNote, markGraphButton, renderGraphButtons } from './fxGraphKinds';
import { markTableRow, nodeDetails, renderNodeTable } from './fxNode';
import { FxPicture } from './fxPicture';
import { NodeSearchBar } from './fxSearchBar';
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
/** Milliseconds a search waits after a keystroke before it lays out again to open a hit's clusters. */
const REVEAL_DELAY_MS = 120;

/**
 * The FX graph pane.
 */
export class FxGraphPane extends Pane {
  private readonly _graphButtons: HTMLElement;
  private readonly _picture: HTMLElement;
  private readonly _pictureNote: HTMLElement;
  private readonly _viewer: GraphViewer;
  private readonly _drawing = new FxPicture();
  private readonly _info: HTMLElement;
  private readonly _table: HTMLElement;
  private readonly _details: HTMLElement;
  private readonly _search: NodeSearchBar;
  private readonly _expandAll: HTMLButtonElement;
  private readonly _exportButtons: HTMLButtonElement[];
  private readonly _models = new Map<number, FxModel>();
  private _graphs: Graph[] = [];
  private _graph: Graph | null = null;
  private _drawnGraph: Graph | null = null;
  private _mode: 'picture' | 'table' = 'picture';
  private _token = 0;
  private _selected: INodeItem | null = null;
  private _revealTimer = 0;

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
    this._search = new NodeSearchBar({
      model: () => this.model,
      highlight: () => this._highlight(),
      show: (item, typing) => void this._showHit(item, typing)
    });
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
      this._search.input,
      this._search.count,
      ...this._exportButtons
    );
    this._info = h('div', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-graphInfo' });
    this._viewer = new GraphViewer(() => this.element.classList.contains('jp-mod-maximised'));
    this._pictureNote = h('div', { class: 'jp-DynamoExplorer-pictureNote' });
    this._picture = h('div', { class: 'jp-DynamoExplorer-picture' }, this._pictureNote, this._viewer.element);
    this._table = h('div', { class: 'jp-DynamoExplorer-nodeTable' });
    this._details = h('aside', { class: 'jp-DynamoExplorer-nodeDetails' }, emptyState(DETAILS_HINT));
    this.body.append(
      this._search.results,
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

  /**
   * No frame: the graphs of the run's exported programs (torch.export: no frame of their own), else the
   * '<no frame>' placeholder in the picture.
   */
  protected renderNoFrame(): Promise<void> {
    return this._show(null);
  }

  /** Show a frame's graphs (null: the exported graphs, if any): its Dynamo graph first, the search kept. */
  private async _show(frame: Frame | null): Promise<void> {
    const graphs = drawnGraphs(
      frame ? this.ctx.index.graphsOf(frame) : this.ctx.report.graphs.filter(g => g.kind === 'export')
    );
    this._graphs = graphs;
    this._graph = graphs.find(g => g.kind === 'dynamo' || g.kind === 'dynamo_partial') ?? graphs[0] ?? null;
    this._selected = null;
    renderGraphButtons(this._graphButtons, graphs, graph => void this.showGraph(graph.id));
    markGraphButton(this._graphButtons, this._graph);
    this.showEmpty(DETAILS_HINT, this._details);
    this._search.refresh(false);
    await this._draw({ kind: 'initial' });
  }

  /**
   * Show one graph (the view has already selected its frame; an exported graph has none).
   */
  async showGraph(graphId: number): Promise<void> {
    const graph = this.ctx.index.graphs.get(graphId);
    if (!graph) {
      return;
    }
    if (!this._graphs.includes(graph)) {
      // an exported program's graph while a frame is shown: its button joins the frame's
      this._graphs = [...this._graphs, graph];
      renderGraphButtons(this._graphButtons, this._graphs, g => void this.showGraph(g.id));
    }
    this._graph = graph;
    this._selected = null;
    markGraphButton(this._graphButtons, this._graph);
    this._search.refresh(false);
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
    return this._viewer.panzoom;
  }

  /** The minimap of the picture. */
  get minimap(): Minimap {
    return this._viewer.minimap;
  }

  /** The search cursor: its hits and the current one. */
  get search(): SearchCursor<INodeItem> {
    return this._search.cursor;
  }

  /**
   * Download the picture drawn now as a standalone SVG or a PNG, named after its compile id and kind: the
   * whole graph at its natural size, whatever the zoom, without the dimming of a search.
   */
  async exportPicture(format: 'svg' | 'png'): Promise<void> {
    const svg = this._drawing.svg;
    const graph = this._graph;
    if (!svg || !graph || !svg.isConnected) {
      return;
    }
    const name = exportFileName(graph, this._graphs.filter(g => g.kind === graph.kind).length, format);
    try {
      const view = this.element.ownerDocument.defaultView;
      const background = view?.getComputedStyle(this._picture).backgroundColor ?? null;
      const ratio = Math.max(PNG_PIXEL_RATIO, view?.devicePixelRatio ?? 1);
      downloadBlob(await this._drawing.exportBlob(svg, format, background, ratio), name);
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
    this._viewer.dispose();
    super.dispose();
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
    this._viewer.element.hidden = true;
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
    this._drawing.clear();
    this._setExportable(false);
    this._viewer.clear();
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
      markTableRow(this._table, this._selected?.node.name);
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
    const { index } = this.ctx;
    this._drawing.wire(svg, items, {
      link: (el, node) =>
        this.link(el, index.lineKey(node.filename, node.line, this._inFrameFile(node.filename)), PICTURE),
      select: item => this._select(item),
      toggle: (cluster, open) => this._toggle(cluster, open)
    });
    this._setExportable(true);
    const newGraph = this._drawnGraph !== graph;
    this._drawnGraph = graph;
    const viewerStarted = performance.now();
    const geometry = this._drawing.setDrawn(svg);
    this._pictureNote.hidden = true;
    this._viewer.show(
      svg,
      {
        size: geometry.size,
        sameGraph: !newGraph,
        whole: collapsed === 0,
        boxOf: id => this._drawing.boxOf(id),
        anchor: () => this._drawing.mainOpBox(this.model)
      },
      view
    );
    this._info.textContent = `${graphNote(graph, this.ctx.report.ddp_splits)}${summary} · layout ${Math.round(performance.now() - started)} ms`;
    if (this._selected) {
      this._select(this._selected);
    }
    this._highlight();
    // Last, so the minimap paints once with the marks set above; its boxes are read only when it is shown.
    this._viewer.minimap.setSource(this._drawing.itemCount, () => this._drawing.minimapItems(geometry));
    // What the viewer added to this drawing (placing the view, the minimap), beside the layout's time.
    this.element.dataset.viewerMs = (performance.now() - viewerStarted).toFixed(1);
  }

  /** Whether a picture is drawn now: the export buttons download it. */
  private _setExportable(drawn: boolean): void {
    for (const btn of this._exportButtons) {
      btn.disabled = !drawn;
    }
  }

  /**
   * Whether a node's file is the cell of the frame shown (its lines link to the source pane); with no frame (an
   * exported graph), whether it is the cell, which the source pane then shows.
   */
  private _inFrameFile(filename: string | null): boolean {
    const frame = this.frame;
    if (!frame) {
      return filename !== null && filename === this.ctx.report.cell.filename;
    }
    return frame.code.in_cell && filename === frame.code.filename;
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
      markTableRow(this._table, this._selected?.node.name);
      return;
    }
    const el = model.visibleItemOf(item) === item ? this._drawing.nodeElement(item.node.name) : undefined;
    if (el && this._drawing.geometry) {
      this._select(item);
      const rect = this._drawing.nodeBox(item.node.name);
      if (rect) {
        this._viewer.panzoom.focus(rect, { minScale: FOCUS_SCALE });
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

  /** Mark the search hits in the picture (fxPicture.ts) and on the minimap. */
  private _highlight(): void {
    if (this._drawing.highlight(this.model, this._search.cursor.hits)) {
      this._viewer.minimap.invalidate();
    }
  }

  /** Select a node: its box marked, its details shown, the minimap's mark moved. */
  private _select(item: INodeItem): void {
    this._selected = item;
    this._drawing.markSelected(item.node.name);
    clear(this._details);
    append(this._details, ...nodeDetails(this.ctx, this.frame, item.node));
    this._viewer.minimap.invalidate();
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
