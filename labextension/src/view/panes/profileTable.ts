/**
 * The sortable tables of the profile pane: a titled section holding a table whose sortable heads sort it by a
 * click (or Enter), again to reverse (`sortRows`, profileModel.ts); each row carries data attributes, those with a
 * compile id are kept to mark the shown frame's rows, and a row may open something on a click. Also the chip that
 * selects a frame, which the tables' cells share.
 */
import type { IViewContext } from '../context';
import { button, h, type Child } from '../../dom';
import { sortRows, type SortDir } from '../../model/profileModel';

/** What the profile pane's sections draw with: the view, and the table rows of a frame. */
export interface IProfileTables {
  readonly ctx: IViewContext;
  /** The rows marked with a compile id (graphs, entries, eager causes, coverage), for the shown frame's mark. */
  readonly framed: HTMLElement[];
}

/** One column of a sortable table. */
export interface IColumn<T> {
  /** The column's head, in Dynamo's or the profiler's words. */
  label: string;
  /** What the column holds (the head's tooltip). */
  title?: string;
  /** A number column: right-aligned, sorted the most first on the first click. */
  numeric?: boolean;
  /** Long text (a graph break's name and line, kernel names): the cell wraps instead of being cut. */
  wrap?: boolean;
  /** The value the column sorts by; none: not sortable. */
  sort?: (row: T) => number | string;
  /** The cell's content. */
  cell: (row: T) => Child;
}

/** The classes of a column's cells: right-aligned numbers, wrapping text. */
function cellClass<T>(column: IColumn<T>): string | undefined {
  return (
    [column.numeric ? 'jp-mod-number' : '', column.wrap ? 'jp-mod-wrap' : ''].filter(Boolean).join(' ') || undefined
  );
}

/** A link that selects a frame. */
export function frameLink(ctx: IViewContext, compileId: string): HTMLElement {
  if (!ctx.index.frames.has(compileId)) {
    return h('span', { class: 'jp-DynamoExplorer-chip', text: `[${compileId}]` });
  }
  return button(`[${compileId}]`, () => void ctx.selectFrame(compileId), {
    class: 'jp-DynamoExplorer-link jp-DynamoExplorer-chip',
    title: `Show frame [${compileId}]`,
    data: { frame: compileId }
  });
}

/**
 * A titled section holding a sortable table: a click (or Enter) on a sortable head sorts by it, again
 * reverses; `rowData` gives each row's data attributes (`compileId` marks the shown frame's rows) and
 * `open`, what a click elsewhere in the row does.
 */
export function sortableTable<T>(
  t: IProfileTables,
  name: string,
  heading: string,
  rows: readonly T[],
  columns: Array<IColumn<T>>,
  rowData: (row: T) => Record<string, string | (() => void) | undefined> = () => ({})
): HTMLElement {
  const tbody = h('tbody');
  const trs = new Map<T, HTMLElement>();
  for (const row of rows) {
    const data: Record<string, string> = {};
    let open: (() => void) | undefined;
    for (const [key, value] of Object.entries(rowData(row))) {
      if (typeof value === 'function') {
        open = value;
      } else if (value !== undefined) {
        data[key] = value;
      }
    }
    const tr = h(
      'tr',
      {
        data,
        class: open ? 'jp-mod-opens' : undefined,
        onclick: open
          ? event => {
              if (!(event.target as Element).closest('button, a, summary')) {
                open!();
              }
            }
          : undefined
      },
      ...columns.map(c => h('td', { class: cellClass(c) }, c.cell(row)))
    );
    trs.set(row, tr);
    if (data.compileId) {
      t.framed.push(tr);
    }
    tbody.appendChild(tr);
  }
  const heads: HTMLElement[] = [];
  let sorted: { column: number; dir: SortDir } | null = null;
  const sortBy = (i: number): void => {
    const column = columns[i];
    const dir: SortDir =
      sorted?.column === i ? (sorted.dir === 'asc' ? 'desc' : 'asc') : column.numeric ? 'desc' : 'asc';
    sorted = { column: i, dir };
    for (const tr of sortRows(rows, column.sort!, dir).map(r => trs.get(r)!)) {
      tbody.appendChild(tr);
    }
    heads.forEach((th, j) =>
      th.setAttribute('aria-sort', j === i ? (dir === 'asc' ? 'ascending' : 'descending') : 'none')
    );
  };
  const headRow = h('tr');
  columns.forEach((column, i) => {
    const th = h('th', {
      class: column.numeric ? 'jp-mod-number' : undefined,
      title: column.title,
      attrs: { scope: 'col' }
    });
    if (column.sort) {
      th.setAttribute('aria-sort', 'none');
      th.appendChild(
        button(column.label, () => sortBy(i), {
          class: 'jp-DynamoExplorer-sortButton',
          title: `Sort by ${column.label}${column.title ? `: ${column.title}` : ''}`
        })
      );
    } else {
      th.textContent = column.label;
    }
    heads.push(th);
    headRow.appendChild(th);
  });
  return h(
    'section',
    { class: 'jp-DynamoExplorer-profileSection', data: { section: name } },
    h('h3', { class: 'jp-DynamoExplorer-profileHeading', text: heading }),
    rows.length > 0
      ? h('table', { class: 'jp-DynamoExplorer-table jp-DynamoExplorer-profileTable' }, h('thead', {}, headRow), tbody)
      : null
  );
}
