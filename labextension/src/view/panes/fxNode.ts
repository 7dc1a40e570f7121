/**
 * Parts of the FX graph pane about single nodes: the details of a clicked node (target, args,
 * shape/dtype, users, module, line, the inductor kernels computing it) and the paged table view of all nodes.
 */
import type { IViewContext } from '../context';
import { button, h } from '../../dom';
import { shapeText, type FxModel, type INodeItem } from '../../graph/fxmodel';
import { lineColourClass } from '../linking';
import type { Frame, Graph, Node as FxNode } from '../../schema';

/** Rows the table shows per page. */
const TABLE_PAGE = 500;

/**
 * The details of one node, with a button that shows its source line.
 */
export function nodeDetails(ctx: IViewContext, frame: Frame | null, node: FxNode): HTMLElement[] {
  const field = (label: string, value: string | null): HTMLElement | null =>
    value
      ? h(
          'div',
          { class: 'jp-DynamoExplorer-field' },
          h('dt', { text: label }),
          h('dd', {}, h('code', { text: value }))
        )
      : null;
  const fields = h(
    'dl',
    {},
    field('op', node.op),
    field('target', node.target),
    field('args', node.args),
    field('kwargs', node.kwargs && node.kwargs !== '{}' ? node.kwargs : null),
    field('shape / dtype', shapeText(node) || null),
    field('users', node.users.join(', ') || null),
    field('module', node.nn_module_stack.join(' › ') || null),
    field('file', node.filename && node.line !== null ? ctx.index.place(node.filename, node.line) : null),
    kernelLinks(ctx, frame, node)
  );
  const out: HTMLElement[] = [
    h('div', { class: 'jp-DynamoExplorer-detailsTitle', text: node.name, data: { node: node.name } }),
    fields
  ];
  // no frame (an exported graph): a line of the cell, which the source pane shows then
  if (node.line !== null && (frame || node.filename === ctx.report.cell.filename)) {
    const line = node.line;
    out.push(button(`show line ${line}`, () => void ctx.jumpToLine(frame, line), { class: 'jp-DynamoExplorer-link' }));
  }
  return out;
}

/**
 * The "kernels" field of a node's details: a link per inductor kernel (or extern kernel call) computing it, which
 * opens the code pane's inductor tab on it; null when no output code names the node.
 */
function kernelLinks(ctx: IViewContext, frame: Frame | null, node: FxNode): HTMLElement | null {
  const graph: Graph | undefined = frame ? ctx.index.graphsOf(frame).find(g => g.nodes.includes(node)) : undefined;
  const refs = graph ? ctx.index.kernels.kernelsOfNode(graph, node.name) : [];
  if (refs.length === 0) {
    return null;
  }
  const kinds = new Set(refs.map(r => ctx.index.kernels.codes[r.code]?.kind));
  const dd = h('dd', { class: 'jp-DynamoExplorer-nodeKernels' });
  for (const ref of refs) {
    const kind = ctx.index.kernels.codes[ref.code]?.kind ?? '';
    dd.appendChild(
      button(kinds.size > 1 ? `${ref.kernel} (${kind})` : ref.kernel, () => void ctx.showKernel(ref), {
        class: 'jp-DynamoExplorer-link jp-DynamoExplorer-kernelLink',
        title: `show ${ref.kernel} in the inductor ${kind} code`,
        data: { kernel: ref.kernel, kind }
      })
    );
  }
  return h('div', { class: 'jp-DynamoExplorer-field' }, h('dt', { text: refs.length > 1 ? 'kernels' : 'kernel' }), dd);
}

/**
 * Append a page of the node table to `container` (creating the table on the first page); `link` registers
 * a row under its line key (the pane's line links).
 */
export function renderNodeTable(
  ctx: IViewContext,
  container: HTMLElement,
  model: FxModel,
  from: number,
  link: (el: Element, key: string | null) => void,
  inFrameFile: (filename: string | null) => boolean,
  onSelect: (item: INodeItem) => void
): void {
  let table = container.querySelector('table');
  if (!table) {
    table = h(
      'table',
      { class: 'jp-DynamoExplorer-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['name', 'op', 'target', 'args', 'shape / dtype', 'line', 'module'].map(t => h('th', { text: t }))
        )
      ),
      h('tbody')
    );
    container.appendChild(table);
  }
  const tbody = table.querySelector('tbody')!;
  for (const item of model.nodes.slice(from, from + TABLE_PAGE)) {
    const n = item.node;
    const row = h(
      'tr',
      { data: { node: n.name }, onclick: () => onSelect(item) },
      h('td', { text: n.name }),
      h('td', { text: n.op }),
      h('td', { text: n.target }),
      h('td', { text: n.args }),
      h('td', { text: shapeText(n) }),
      h('td', { text: n.line === null ? '' : String(n.line) }),
      h('td', { text: n.nn_module_stack[n.nn_module_stack.length - 1] ?? '' })
    );
    if (n.line !== null) {
      row.classList.add(lineColourClass(n.line));
    }
    link(row, ctx.index.lineKey(n.filename, n.line, inFrameFile(n.filename)));
    tbody.appendChild(row);
  }
  container.querySelector('.jp-DynamoExplorer-more')?.remove();
  const next = from + TABLE_PAGE;
  if (next < model.nodes.length) {
    container.appendChild(
      button(
        `show ${Math.min(TABLE_PAGE, model.nodes.length - next)} more of ${model.nodes.length - next}`,
        () => renderNodeTable(ctx, container, model, next, link, inFrameFile, onSelect),
        { class: 'jp-DynamoExplorer-more' }
      )
    );
  }
}

/** Mark the table row of the selected node (`name`; none: undefined) and scroll it into view. */
export function markTableRow(container: HTMLElement, name: string | undefined): void {
  for (const row of Array.from(container.querySelectorAll<HTMLElement>('tr[data-node]'))) {
    const on = row.dataset.node === name;
    row.classList.toggle('jp-mod-selected', on);
    if (on && typeof row.scrollIntoView === 'function') {
      row.scrollIntoView({ block: 'nearest' });
    }
  }
}
