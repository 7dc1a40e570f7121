/**
 * FX graph pane: the picture (laid out in the browser by wasm graphviz), a table view, node search, and
 * the details of a clicked node. Big graphs start collapsed by nn_module_stack; a click on a box lays out
 * that box's children only. The toolbar's SVG and PNG buttons download the picture drawn now (svgExport.ts).
 */
import type { IViewContext } from '../context';
import { append, button, clear, h } from '../dom';
import { FxModel, type ICluster, type INodeItem, type Item } from '../fxmodel';
import { renderDot } from '../graphviz';
import { lineColourClass } from '../linking';
import type { Frame, Graph } from '../schema';
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

/**
 * The FX graph pane.
 */
export class FxGraphPane extends Pane {
  private readonly _graphButtons: HTMLElement;
  private readonly _picture: HTMLElement;
  private readonly _info: HTMLElement;
  private readonly _table: HTMLElement;
  private readonly _details: HTMLElement;
  private readonly _results: HTMLElement;
  private readonly _search: HTMLInputElement;
  private readonly _expandAll: HTMLButtonElement;
  private readonly _exportButtons: HTMLButtonElement[];
  private readonly _models = new Map<number, FxModel>();
  private _graphs: Graph[] = [];
  private _graph: Graph | null = null;
  private _svg: SVGSVGElement | null = null;
  private _mode: 'picture' | 'table' = 'picture';
  private _token = 0;
  private _selected: INodeItem | null = null;
  private _nodeEls = new Map<string, Element>();

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
        void this._draw();
      }
    );
    this._search = h('input', {
      class: 'jp-DynamoExplorer-search',
      attrs: { type: 'search', placeholder: 'find node…', 'aria-label': 'find node' }
    });
    this._search.addEventListener('input', () => this._onSearch());
    this._search.addEventListener('keydown', event => {
      if (event.key === 'Enter') {
        const first = this._results.querySelector('button');
        (first as HTMLButtonElement | null)?.click();
      }
    });
    this._expandAll = button('expand all', () => this._setAll(true), { class: 'jp-DynamoExplorer-small' });
    const collapse = button('collapse', () => this._setAll(false), { class: 'jp-DynamoExplorer-small' });
    this._exportButtons = (['svg', 'png'] as const).map(format => {
      const btn = button(format.toUpperCase(), () => void this.exportPicture(format), {
        class: 'jp-DynamoExplorer-small',
        title: `Download the graph drawn now as ${format.toUpperCase()}`,
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
      ...this._exportButtons
    );
    this._results = h('div', { class: 'jp-DynamoExplorer-searchResults' });
    this._info = h('div', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-graphInfo' });
    this._picture = h('div', { class: 'jp-DynamoExplorer-picture' });
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

  private async _show(frame: Frame | null): Promise<void> {
    const graphs = frame
      ? this.ctx.index.graphsOf(frame).filter(g => g.kind === 'dynamo' || g.kind === 'dynamo_partial')
      : [];
    this._graphs = graphs;
    this._graph = graphs[0] ?? null;
    this._selected = null;
    this._renderGraphButtons(graphs);
    this.showEmpty(DETAILS_HINT, this._details);
    await this._draw();
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
    for (const btn of Array.from(this._graphButtons.querySelectorAll('button'))) {
      btn.classList.toggle('jp-mod-selected', btn.dataset.graphId === String(graphId));
    }
    await this._draw();
  }

  /** The model of the graph shown now. */
  get model(): FxModel | null {
    return this._graph ? this._modelOf(this._graph) : null;
  }

  /**
   * Download the picture drawn now as a standalone SVG or a PNG, named after its compile id and kind.
   */
  async exportPicture(format: 'svg' | 'png'): Promise<void> {
    const svg = this._svg;
    const graph = this._graph;
    if (!svg || !graph || !svg.isConnected) {
      return;
    }
    const name = exportFileName(graph, this._graphs.length, format);
    try {
      const view = this.element.ownerDocument.defaultView;
      const text = standaloneSvg(svg, { background: view?.getComputedStyle(this._picture).backgroundColor ?? null });
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

  private _renderGraphButtons(graphs: Graph[]): void {
    clear(this._graphButtons);
    if (graphs.length <= 1) {
      return;
    }
    for (const graph of graphs) {
      const btn = button(graph.name ?? `graph ${graph.id}`, () => void this.showGraph(graph.id), {
        data: { graphId: String(graph.id) },
        class: 'jp-DynamoExplorer-small'
      });
      btn.classList.toggle('jp-mod-selected', graph === this._graph);
      this._graphButtons.appendChild(btn);
    }
  }

  private _modelOf(graph: Graph): FxModel {
    let model = this._models.get(graph.id);
    if (!model) {
      model = new FxModel(graph.nodes);
      this._models.set(graph.id, model);
    }
    return model;
  }

  private async _draw(): Promise<void> {
    const token = ++this._token;
    const graph = this._graph;
    this.releaseLinks(PICTURE);
    this.releaseLinks(TABLE);
    this._setDrawn(null);
    this._nodeEls = new Map();
    clear(this._picture);
    clear(this._table);
    clear(this._info);
    this._picture.hidden = this._mode !== 'picture';
    this._table.hidden = this._mode !== 'table';
    this.element.dataset.graphId = graph ? String(graph.id) : '';
    if (!graph) {
      this._expandAll.hidden = true;
      this.showEmpty(this.frame ? '<no FX graph: this frame compiled no graph>' : NO_FRAME, this._picture);
      return;
    }
    this._expandAll.hidden = graph.nodes.length > EXPAND_ALL_LIMIT;
    if (this._mode === 'table') {
      this._info.textContent = `${partialNote(graph)}${graph.nodes.length} nodes`;
      this._renderTable(graph, 0);
      return;
    }
    const started = performance.now();
    let svg: SVGSVGElement;
    let items = new Map<string, Item>();
    let summary: string;
    try {
      if (graph.nodes.length === 0) {
        this.showEmpty('<empty graph>', this._picture);
        return;
      }
      const model = this._modelOf(graph);
      const result = model.toDot();
      items = result.items;
      svg = await renderDot(result.dot);
      const collapsed = [...items.values()].filter(i => i.kind === 'cluster' && !model.isExpanded(i)).length;
      summary = `${graph.nodes.length} nodes · ${result.visibleCount} boxes drawn${collapsed ? ` · ${collapsed} collapsed groups: click one to open it` : ''}`;
    } catch (error) {
      if (token === this._token) {
        this.element.dataset.state = 'error';
        this.showEmpty(`Could not lay out the graph: ${(error as Error).message}`, this._picture);
      }
      return;
    }
    if (token !== this._token) {
      return;
    }
    this.element.dataset.state = 'drawn';
    svg.classList.add('jp-DynamoExplorer-svg');
    this._wire(svg, items);
    this._picture.appendChild(svg);
    this._setDrawn(svg);
    this._info.textContent = `${partialNote(graph)}${summary} · layout ${Math.round(performance.now() - started)} ms`;
    if (this._selected) {
      this._select(this._selected);
    }
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
    for (const btn of this._exportButtons) {
      btn.disabled = !svg;
    }
  }

  private _inFrameFile(filename: string | null): boolean {
    const frame = this.frame;
    return !!frame && frame.code.in_cell && filename === frame.code.filename;
  }

  private _toggle(cluster: ICluster, open: boolean): void {
    this.model?.setExpanded(cluster, open);
    void this._draw();
  }

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
    void this._draw();
  }

  private _onSearch(): void {
    clear(this._results);
    const model = this.model;
    if (!model) {
      return;
    }
    const hits = model.search(this._search.value);
    for (const item of hits) {
      this._results.appendChild(
        button(`${item.node.name} · ${item.node.target}`, () => void this._reveal(item), {
          class: 'jp-DynamoExplorer-small',
          data: { node: item.node.name }
        })
      );
    }
    if (this._search.value.trim() && hits.length === 0) {
      this._results.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: 'no node matches' }));
    }
  }

  private async _reveal(item: INodeItem): Promise<void> {
    this.model?.reveal(item);
    this._selected = item;
    await this._draw();
    const el = this._nodeEls.get(item.node.name);
    if (el && typeof (el as HTMLElement).scrollIntoView === 'function') {
      (el as HTMLElement).scrollIntoView({ block: 'center', inline: 'center' });
    }
  }

  private _select(item: INodeItem): void {
    this._selected = item;
    for (const [name, el] of this._nodeEls) {
      el.classList.toggle('jp-mod-selected', name === item.node.name);
    }
    clear(this._details);
    append(this._details, ...nodeDetails(this.ctx, this.frame, item.node));
  }

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

/** A line that says a graph is what Dynamo traced before it raised, not a compiled graph. */
function partialNote(graph: Graph): string {
  return graph.kind === 'dynamo_partial' ? 'partial graph: traced before the error, never compiled · ' : '';
}
