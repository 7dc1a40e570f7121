/**
 * The picture of the FX graph pane: the graphviz SVG of the graph drawn now, mapped back to the model's nodes
 * and clusters. `wire` gives each drawn box its data attributes, tooltip, line colour and link, and its click
 * (a node selects, a collapsed cluster opens, an open cluster's label closes it); the marks on the picture (the
 * selected node, the search hits, the rest dimmed while searching); the boxes the viewer and the minimap need
 * (svgGeometry.ts); and its export as SVG or PNG, without the dimming of a search.
 */
import type { FxModel, ICluster, INodeItem, Item } from '../../graph/fxmodel';
import type { IMinimapItem } from '../../graph/minimap';
import { standaloneSvg, svgToPng } from '../../graph/svgExport';
import { graphGeometry, shapeBox, type IGraphGeometry } from '../../graph/svgGeometry';
import type { IRect } from '../../graph/transform';
import type { Node as FxNode } from '../../schema';
import { lineColourClass } from '../linking';

/** What a drawn box does: its line link, a click on a node, a click on a cluster. */
export interface IPictureActions {
  /** Register a drawn node under its line key (null: no link). */
  link(el: Element, node: FxNode): void;
  /** A node was clicked. */
  select(item: INodeItem): void;
  /** A collapsed cluster was clicked (`open` true) or an open cluster's label (false). */
  toggle(cluster: ICluster, open: boolean): void;
}

/**
 * One drawn picture (or none): its SVG, geometry and the drawn group of each item.
 */
export class FxPicture {
  private _svg: SVGSVGElement | null = null;
  private _geometry: IGraphGeometry | null = null;
  private _nodeEls = new Map<string, Element>();
  private _itemEls = new Map<string, Element>();
  private _hitEls: Element[] = [];

  /** The SVG drawn now (null: none). */
  get svg(): SVGSVGElement | null {
    return this._svg;
  }

  /** Its geometry (null: none drawn). */
  get geometry(): IGraphGeometry | null {
    return this._geometry;
  }

  /** How many items are drawn (nodes and clusters). */
  get itemCount(): number {
    return this._itemEls.size;
  }

  /** Forget the picture. */
  clear(): void {
    this._svg = null;
    this._geometry = null;
    this._nodeEls = new Map();
    this._itemEls = new Map();
    this._hitEls = [];
  }

  /** Map SVG groups back to nodes and clusters (`items`: by DOT id); clicks and line links. */
  wire(svg: SVGSVGElement, items: Map<string, Item>, actions: IPictureActions): void {
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
        actions.link(g, node);
        g.addEventListener('click', () => actions.select(item));
        this._nodeEls.set(node.name, g);
      } else if (g.classList.contains('cluster')) {
        g.setAttribute('data-cluster', item.id);
        if (title) {
          title.textContent = `${item.key || item.label} (${item.size} nodes): click the label to collapse`;
        }
        const label = g.querySelector('text');
        label?.addEventListener('click', event => {
          event.stopPropagation();
          actions.toggle(item, false);
        });
      } else {
        g.setAttribute('data-cluster', item.id);
        g.classList.add('jp-mod-collapsed');
        if (title) {
          title.textContent = `${item.key || item.label} (${item.size} nodes): click to open`;
        }
        g.addEventListener('click', () => actions.toggle(item, true));
      }
    }
  }

  /** The picture is drawn (its groups wired): remember it and read its geometry. */
  setDrawn(svg: SVGSVGElement): IGraphGeometry {
    this._svg = svg;
    this._geometry = graphGeometry(svg);
    return this._geometry;
  }

  /** The drawn group of a node, by name. */
  nodeElement(name: string): Element | undefined {
    return this._nodeEls.get(name);
  }

  /** The box of a drawn item by DOT id, in picture pixels, or null. */
  boxOf(id: string): IRect | null {
    const el = this._itemEls.get(id);
    return el && this._geometry ? shapeBox(el, this._geometry) : null;
  }

  /** The box of a drawn node by name, or null. */
  nodeBox(name: string): IRect | null {
    const el = this._nodeEls.get(name);
    return el && this._geometry ? shapeBox(el, this._geometry) : null;
  }

  /**
   * The box of the op the first view centres on: the drawn node, not an input, that most nodes feed (the
   * layer's main op, past a wide row of parameters); the first such node on a tie.
   */
  mainOpBox(model: FxModel | null): IRect | null {
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

  /** The boxes of the picture for the minimap. */
  minimapItems(geometry: IGraphGeometry): IMinimapItem[] {
    const out: IMinimapItem[] = [];
    for (const el of this._itemEls.values()) {
      const rect = shapeBox(el, geometry);
      if (rect) {
        out.push({ el, rect, kind: el.classList.contains('cluster') ? 'cluster' : 'node' });
      }
    }
    return out;
  }

  /**
   * Mark the search: every hit's drawn box (or the collapsed cluster holding it) is a hit, the rest dims. False
   * when no picture is drawn.
   */
  highlight(model: FxModel | null, hits: readonly INodeItem[]): boolean {
    for (const el of this._hitEls) {
      el.classList.remove('jp-mod-hit');
    }
    this._hitEls = [];
    const svg = this._svg;
    if (!svg || !model) {
      return false;
    }
    for (const hit of hits) {
      const el = this._itemEls.get(model.visibleItemOf(hit).id);
      if (el && !el.classList.contains('jp-mod-hit')) {
        el.classList.add('jp-mod-hit');
        this._hitEls.push(el);
      }
    }
    svg.classList.toggle('jp-mod-searching', hits.length > 0);
    return true;
  }

  /** Mark the selected node's box. */
  markSelected(name: string): void {
    for (const [nodeName, el] of this._nodeEls) {
      el.classList.toggle('jp-mod-selected', nodeName === name);
    }
  }

  /**
   * The picture as a standalone SVG document or a PNG at `pixelRatio` (svgExport.ts), painted on `background`,
   * without the dimming of a search.
   */
  async exportBlob(
    svg: SVGSVGElement,
    format: 'svg' | 'png',
    background: string | null,
    pixelRatio: number
  ): Promise<Blob> {
    const searching = svg.classList.contains('jp-mod-searching');
    svg.classList.remove('jp-mod-searching');
    let text: string;
    try {
      text = standaloneSvg(svg, { background });
    } finally {
      svg.classList.toggle('jp-mod-searching', searching);
    }
    return format === 'svg' ? new Blob([text], { type: 'image/svg+xml' }) : await svgToPng(text, pixelRatio);
  }
}
