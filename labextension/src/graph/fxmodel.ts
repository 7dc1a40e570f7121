/**
 * The FX graph as a tree of collapsible clusters, and the DOT text of what is visible now.
 *
 * Nodes are grouped by `nn_module_stack` (outermost module first). A cluster with too many children has
 * runs of loose nodes cut into chunks and its children put into sequential parts, so no level holds more
 * than `maxChildren` items. Only the expanded part of the tree is laid out: a 10,000-node graph starts as a
 * few dozen boxes, and expanding a box lays out that box's children, never the whole graph.
 */
import { dotString } from './graphviz';
import type { Node as FxNode } from '../schema';

/** A node of the FX graph, as a tree item. */
export interface INodeItem {
  kind: 'node';
  /** DOT id: 'n<index>'. */
  id: string;
  index: number;
  node: FxNode;
  parent: ICluster;
}

/** A group of items: a module of nn_module_stack, or a synthetic chunk/part of a long list. */
export interface ICluster {
  kind: 'cluster';
  /** DOT id: 'c<number>'. */
  id: string;
  /** Module path, or '' for the root and synthetic groups. */
  key: string;
  label: string;
  children: Item[];
  /** FX nodes below this cluster. */
  size: number;
  parent: ICluster | null;
  synthetic: boolean;
}

/** An item of the tree. */
export type Item = INodeItem | ICluster;

/** Tuning of the tree. */
export interface IFxModelOptions {
  /** Most items one cluster shows when expanded. */
  maxChildren: number;
  /** Longest run of loose nodes kept without chunking (only in clusters over maxChildren). */
  runLimit: number;
  /** Visible items the first view may hold. */
  initialBudget: number;
  /** Graphs up to this many nodes are drawn whole, with every module open. */
  smallGraph: number;
}

/** Defaults, chosen so that a first layout stays well under a second on a laptop. */
export const DEFAULT_FX_OPTIONS: IFxModelOptions = {
  maxChildren: 40,
  runLimit: 25,
  initialBudget: 60,
  smallGraph: 150
};

/** Result of `toDot`. */
export interface IDotResult {
  dot: string;
  /** DOT id -> item, to map SVG <title> back to the graph. */
  items: Map<string, Item>;
  /** Items drawn (nodes and collapsed clusters). */
  visibleCount: number;
}

/**
 * Tree of clusters over one graph's nodes, with its expand state.
 */
export class FxModel {
  readonly root: ICluster;
  readonly nodes: INodeItem[] = [];
  readonly byName = new Map<string, INodeItem>();
  readonly options: IFxModelOptions;
  private readonly _expanded = new Set<ICluster>();
  private _nextCluster = 0;

  constructor(nodes: FxNode[], options: Partial<IFxModelOptions> = {}) {
    this.options = { ...DEFAULT_FX_OPTIONS, ...options };
    this.root = this._cluster('', 'graph', null, false);
    const index = new Map<ICluster, Map<string, ICluster>>();
    nodes.forEach((node, i) => {
      let cur = this.root;
      for (const path of node.nn_module_stack ?? []) {
        let sub = index.get(cur);
        if (!sub) {
          sub = new Map();
          index.set(cur, sub);
        }
        let next = sub.get(path);
        if (!next) {
          next = this._cluster(path, moduleLabel(path, cur.key), cur, false);
          sub.set(path, next);
          cur.children.push(next);
        }
        cur = next;
      }
      const item: INodeItem = { kind: 'node', id: `n${i}`, index: i, node, parent: cur };
      cur.children.push(item);
      this.nodes.push(item);
      this.byName.set(node.name, item);
    });
    this._finish(this.root);
    this._expanded.add(this.root);
    this._expandInitial();
  }

  /** Is a cluster drawn open? */
  isExpanded(cluster: ICluster): boolean {
    return this._expanded.has(cluster) || cluster.size <= 1;
  }

  /** Open or close a cluster (the root stays open). */
  setExpanded(cluster: ICluster, open: boolean): void {
    if (open) {
      this._expanded.add(cluster);
    } else if (cluster !== this.root) {
      this._expanded.delete(cluster);
    }
  }

  /** Open every cluster above a node, so that it is drawn. */
  reveal(item: INodeItem): void {
    for (let c: ICluster | null = item.parent; c; c = c.parent) {
      this._expanded.add(c);
    }
  }

  /** Nodes whose name, target or module path contains `query` (case-insensitive). */
  search(query: string, limit = 20): INodeItem[] {
    const q = query.trim().toLowerCase();
    if (!q) {
      return [];
    }
    const out: INodeItem[] = [];
    for (const item of this.nodes) {
      const n = item.node;
      if (
        n.name.toLowerCase().includes(q) ||
        n.target.toLowerCase().includes(q) ||
        (n.nn_module_stack ?? []).some(p => p.toLowerCase().includes(q))
      ) {
        out.push(item);
        if (out.length >= limit) {
          break;
        }
      }
    }
    return out;
  }

  /** The item that stands for a node in the current view (itself, or its outermost collapsed cluster). */
  visibleItemOf(item: INodeItem): Item {
    let shown: Item = item;
    for (let c: ICluster | null = item.parent; c; c = c.parent) {
      if (!this.isExpanded(c)) {
        shown = c;
      }
    }
    return shown;
  }

  /**
   * DOT text of the visible part of the graph.
   */
  toDot(): IDotResult {
    const items = new Map<string, Item>();
    const owner: string[] = new Array(this.nodes.length);
    const lines: string[] = [
      'digraph G {',
      '  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.25, ranksep=0.35, labeljust=l];',
      '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="Helvetica", fontsize=10, height=0.3, margin="0.08,0.03"];',
      '  edge [arrowsize=0.6];'
    ];
    let visible = 0;
    const emit = (cluster: ICluster, indent: string): void => {
      for (const child of cluster.children) {
        if (child.kind === 'node') {
          items.set(child.id, child);
          owner[child.index] = child.id;
          visible += 1;
          lines.push(
            `${indent}${child.id} [label=${dotString(nodeLabel(child.node))}, class=${dotString(`op-${child.node.op}`)}];`
          );
        } else if (this.isExpanded(child) && child.synthetic) {
          // An open chunk or part is drawn without a frame: dot lays clusters out slowly, and these
          // groups only exist to keep the view small.
          items.set(child.id, child);
          emit(child, indent);
        } else if (this.isExpanded(child)) {
          items.set(child.id, child);
          lines.push(`${indent}subgraph cluster_${child.id} {`);
          lines.push(
            `${indent}  label=${dotString(child.label)}; class=${dotString(`cluster-open ${child.id}`)}; style="rounded,dashed";`
          );
          emit(child, indent + '  ');
          lines.push(`${indent}}`);
        } else {
          items.set(child.id, child);
          visible += 1;
          this._forEachNode(child, n => {
            owner[n.index] = child.id;
          });
          const label = `${child.label}\n${child.size} nodes`;
          lines.push(
            `${indent}${child.id} [label=${dotString(label)}, shape=box3d, style=filled, class="cluster-collapsed"];`
          );
        }
      }
    };
    emit(this.root, '  ');
    const edges = new Map<string, number>();
    for (const item of this.nodes) {
      const from = owner[item.index];
      for (const userName of item.node.users) {
        const user = this.byName.get(userName);
        if (!user) {
          continue;
        }
        const to = owner[user.index];
        if (from && to && from !== to) {
          const key = `${from} -> ${to}`;
          edges.set(key, (edges.get(key) ?? 0) + 1);
        }
      }
    }
    for (const [key, count] of edges) {
      lines.push(count > 1 ? `  ${key} [label="${count}", fontsize=8];` : `  ${key};`);
    }
    lines.push('}');
    return { dot: lines.join('\n'), items, visibleCount: visible };
  }

  private _forEachNode(cluster: ICluster, fn: (item: INodeItem) => void): void {
    for (const child of cluster.children) {
      if (child.kind === 'node') {
        fn(child);
      } else {
        this._forEachNode(child, fn);
      }
    }
  }

  private _cluster(key: string, label: string, parent: ICluster | null, synthetic: boolean): ICluster {
    return { kind: 'cluster', id: `c${this._nextCluster++}`, key, label, children: [], size: 0, parent, synthetic };
  }

  /** Post-order: sizes, then chunk long runs and split wide clusters. */
  private _finish(cluster: ICluster): number {
    let size = 0;
    for (const child of cluster.children) {
      size += child.kind === 'node' ? 1 : this._finish(child);
    }
    cluster.size = size;
    const { maxChildren, runLimit } = this.options;
    if (cluster.children.length > maxChildren) {
      cluster.children = this._chunkRuns(cluster, runLimit);
    }
    this._split(cluster, maxChildren);
    return size;
  }

  /** Replace runs of more than `runLimit` loose nodes by chunks of `runLimit`. */
  private _chunkRuns(cluster: ICluster, runLimit: number): Item[] {
    const out: Item[] = [];
    let run: INodeItem[] = [];
    const flush = (): void => {
      if (run.length > runLimit) {
        for (let i = 0; i < run.length; i += runLimit) {
          out.push(this._group(cluster, run.slice(i, i + runLimit)));
        }
      } else {
        out.push(...run);
      }
      run = [];
    };
    for (const child of cluster.children) {
      if (child.kind === 'node') {
        run.push(child);
      } else {
        flush();
        out.push(child);
      }
    }
    flush();
    return out;
  }

  /** When a cluster shows more than `maxChildren` items, put them into sequential parts (recursively). */
  private _split(cluster: ICluster, maxChildren: number): void {
    if (cluster.children.length <= maxChildren) {
      return;
    }
    const size = Math.max(2, Math.ceil(cluster.children.length / maxChildren));
    const parts: ICluster[] = [];
    for (let i = 0; i < cluster.children.length; i += size) {
      parts.push(this._group(cluster, cluster.children.slice(i, i + size)));
    }
    cluster.children = parts;
    for (const part of parts) {
      this._split(part, maxChildren);
    }
  }

  /** A synthetic cluster holding `members` (re-parented). */
  private _group(parent: ICluster, members: Item[]): ICluster {
    const group = this._cluster('', '', parent, true);
    group.children = members;
    let size = 0;
    for (const m of members) {
      m.parent = group;
      size += m.kind === 'node' ? 1 : m.size;
    }
    group.size = size;
    const label = (item: Item): string => (item.kind === 'node' ? item.node.name : item.label);
    const first = members[0];
    const last = members[members.length - 1];
    group.label = first === last ? label(first) : `${label(first)} … ${label(last)}`;
    return group;
  }

  /** Open clusters breadth-first while the view stays within the initial budget. */
  private _expandInitial(): void {
    if (this.nodes.length <= this.options.smallGraph) {
      const all = (c: ICluster): void => {
        this._expanded.add(c);
        c.children.forEach(child => child.kind === 'cluster' && all(child));
      };
      all(this.root);
      return;
    }
    let visible = this.root.children.length;
    const queue = this.root.children.filter((c): c is ICluster => c.kind === 'cluster');
    while (queue.length > 0) {
      const cluster = queue.shift()!;
      const cost = cluster.children.length - 1;
      if (visible + cost <= this.options.initialBudget) {
        this._expanded.add(cluster);
        visible += cost;
        for (const child of cluster.children) {
          if (child.kind === 'cluster') {
            queue.push(child);
          }
        }
      }
    }
  }
}

/** Label of a module cluster: its path, without the parent's path when it extends it. */
function moduleLabel(path: string, parentPath: string): string {
  if (parentPath && path.startsWith(parentPath + '.')) {
    return path.slice(parentPath.length + 1);
  }
  return path;
}

/** Short dtype: 'torch.float32' -> 'float32'. */
export function shortDtype(dtype: string | null | undefined): string {
  return dtype ? dtype.replace(/^torch\./, '') : '';
}

/** Shape and dtype as one string: 'float32[10, s0]'. */
export function shapeText(node: FxNode): string {
  if (!node.shape && !node.dtype) {
    return '';
  }
  return `${shortDtype(node.dtype)}${node.shape ? `[${node.shape.join(', ')}]` : ''}`;
}

/**
 * The dotted path of a parameter or buffer Dynamo lifted into a graph input, from the name it gave it:
 * 'g_layer_modules_norm1_parameters_weight_' -> 'layer.norm1.weight'; null for any other name.
 */
export function liftedPath(name: string): string | null {
  const m = /^[lg]_(.+)_$/.exec(name);
  if (!m || !/_(?:parameters|buffers)_/.test(name)) {
    return null;
  }
  return m[1].split(/_(?:modules|parameters|buffers)_/).join('.');
}

/** A module path of nn_module_stack as a dotted path: "L['self'].layers.0" -> 'self.layers.0'. */
export function modulePath(path: string): string {
  return path.replace(/^[A-Z]\['([^']*)'\]/, '$1');
}

/** Longest line of a wrapped parameter label. */
const WRAP = 18;

/**
 * Split a dotted path into lines of at most WRAP characters at its dots (a longer part keeps its line).
 */
export function wrapPath(path: string, width = WRAP): string {
  const lines: string[] = [];
  let line = '';
  for (const part of path.split(/(?<=\.)/)) {
    if (line && line.length + part.length > width) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  if (line) {
    lines.push(line);
  }
  return lines.join('\n');
}

/**
 * The name an FX node is drawn with: a lifted parameter or buffer by its dotted path, relative to the module
 * it is drawn in and wrapped at its dots (the long mangled names made the row of inputs far wider than the
 * graph); any other node by its name.
 */
export function displayName(node: FxNode): string {
  const lifted = node.op === 'placeholder' ? liftedPath(node.name) : null;
  if (!lifted) {
    return node.name;
  }
  const stack = node.nn_module_stack ?? [];
  const owner = stack.length > 0 ? modulePath(stack[stack.length - 1]) : '';
  const path = owner && lifted.startsWith(owner + '.') ? lifted.slice(owner.length + 1) : lifted;
  return wrapPath(path);
}

/** Label of an FX node in the picture. */
export function nodeLabel(node: FxNode): string {
  // An AOT graph's targets are aten overloads: 'torch.ops.aten.addmm.default' reads 'aten.addmm.default'.
  const full = node.target.replace(/^torch\.ops\./, '');
  const target = full.length > 48 ? full.slice(0, 47) + '…' : full;
  const parts = [displayName(node)];
  if (node.op !== 'placeholder' && node.op !== 'output' && target !== node.name) {
    parts.push(target);
  }
  const shape = shapeText(node);
  if (shape) {
    parts.push(shape);
  }
  return parts.join('\n');
}
