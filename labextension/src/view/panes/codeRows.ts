/**
 * The rows of the code pane: code drawn as numbered rows, each linked to and coloured by the source line it
 * comes from (plain first, then highlighted; one plain block when `tooLongForRows`), the line key of a row, the
 * nodes of a graph by name (a node's line links the rows of its code), and the titles of graph kinds.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../../dom';
import { appendLine, codeBlock, highlightLines, tooLongForRows, type Language, type Line } from '../highlight';
import { lineColourClass } from '../linking';
import type { Frame, Graph, GraphKind, Node as FxNode } from '../../schema';
import type { IPaneParts } from './pane';

/** FX's summary of a node's stack trace, and the same comment in inductor's code. */
export const FILE_COMMENT = /# File: (.+?):(\d+) in /;

/** What a tab's builder gives. */
export interface IBuilt {
  element: HTMLElement;
  done: Promise<void>;
  lines: number;
}

/** The line key and colour of each row of a code text (index: 0-based line). */
export type RowKey = { key: string; line: number } | null;

/** Tab titles of graph kinds. */
export const KIND_TITLE: Record<GraphKind, string> = {
  dynamo: 'Dynamo graph',
  dynamo_partial: 'Partial Dynamo graph (traced before the error)',
  ddp_split_graph: 'DDP split graph',
  ddp_split_child: 'DDP piece',
  aot_joint: 'AOT joint',
  aot_forward: 'AOT forward',
  aot_backward: 'AOT backward',
  aot_inference: 'AOT inference',
  export: 'Exported graph'
};

/** Nodes of a graph by name, built once per graph. */
const NODES_BY_NAME = new WeakMap<Graph, Map<string, FxNode>>();

/** A node of a graph by name. */
export function nodeNamed(graph: Graph, name: string): FxNode | undefined {
  let byName = NODES_BY_NAME.get(graph);
  if (!byName) {
    byName = new Map(graph.nodes.map(n => [n.name, n]));
    NODES_BY_NAME.set(graph, byName);
  }
  return byName.get(name);
}

/** Code drawn as linked rows (plain first, then highlighted), or as one block when `tooLongForRows`. */
export function codeLines(host: IPaneParts, code: string, language: Language, first: number, keys: RowKey[]): IBuilt {
  const texts = code.split('\n');
  if (tooLongForRows(code, texts.length)) {
    const b = codeBlock(code, language);
    return { ...b, lines: texts.length };
  }
  const rows = texts.map((text, i) => codeRow(host, first + i, [[text, '']], keys[i] ?? null));
  const element = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-codeLines' }, ...rows);
  const done = highlightLines(code, language)
    .then(lines =>
      lines.forEach((line, i) => {
        const cell = rows[i]?.querySelector('.jp-DynamoExplorer-lineCode');
        if (cell) {
          clear(cell);
          appendLine(cell as HTMLElement, line);
        }
      })
    )
    .catch(() => undefined);
  return { element, done, lines: texts.length };
}

/** One code row: its line number and text, linked and coloured by the source line it comes from. */
export function codeRow(host: IPaneParts, lineno: number, line: Line, key: RowKey): HTMLElement {
  const code = h('span', { class: 'jp-DynamoExplorer-lineCode' });
  appendLine(code, line);
  const row = h(
    'div',
    { class: 'jp-DynamoExplorer-row', data: { line: String(lineno) } },
    h('span', { class: 'jp-DynamoExplorer-lineno', text: String(lineno) }),
    code
  );
  if (key) {
    row.classList.add(lineColourClass(key.line));
    host.link(row, key.key);
  }
  return row;
}

/** The key of a source line, the frame's own file counting as the cell when the frame is the cell's. */
export function rowKey(ctx: IViewContext, frame: Frame, filename: string | null, line: number | null): RowKey {
  if (line === null || !isFinite(line)) {
    return null;
  }
  const key = ctx.index.lineKey(filename, line, frame.code.in_cell && filename === frame.code.filename);
  return key ? { key, line } : null;
}

/** The key of the first of `names` (nodes of `graph`) that has a source line. */
export function nodesKey(ctx: IViewContext, frame: Frame, graph: Graph | null, names: string[]): RowKey {
  if (!graph) {
    return null;
  }
  for (const name of names) {
    const node = nodeNamed(graph, name);
    const key = node ? rowKey(ctx, frame, node.filename, node.line) : null;
    if (key) {
      return key;
    }
  }
  return null;
}
