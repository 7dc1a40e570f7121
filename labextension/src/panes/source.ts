/**
 * Source pane: the cell's source with the frame's lines coloured, and gutter marks for graph breaks,
 * guards and the cell's exception. Rows link by line to the bytecode panes and the FX graph.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../dom';
import { appendLine, highlightLines, type Line } from '../highlight';
import { lineColourClass } from '../linking';
import type { Frame, GraphBreak, Guard } from '../schema';
import { emptyState, paneShell } from './pane';

/** Linker group of this pane. */
const GROUP = 'source';

/**
 * The source pane.
 */
export class SourcePane {
  readonly element: HTMLElement;
  private readonly _body: HTMLElement;
  private readonly _title: HTMLElement;
  private _rows = new Map<number, HTMLElement>();
  private _lines: Promise<Line[]> | null = null;

  constructor(private readonly _ctx: IViewContext) {
    const shell = paneShell('source', 'Source');
    this.element = shell.element;
    this._body = shell.body;
    this._title = shell.title;
  }

  /**
   * Show the source of a frame.
   */
  async update(frame: Frame | null): Promise<void> {
    const { index, linker, report } = this._ctx;
    linker.clearGroup(GROUP);
    this._rows = new Map();
    clear(this._body);
    this._body.scrollLeft = 0;
    if (!frame) {
      this._body.appendChild(emptyState('<no frame>'));
      return;
    }
    if (!frame.code.in_cell) {
      this._title.textContent = 'Source';
      this._body.appendChild(
        emptyState(`${frame.code.name} is defined in ${frame.code.filename}:${frame.code.firstlineno}, outside this cell.`)
      );
      return;
    }
    this._title.textContent = `Source (cell)`;
    if (!this._lines) {
      this._lines = highlightLines(report.cell.source, 'python').catch(() =>
        report.cell.source.split('\n').map(text => [[text, '']] as Line)
      );
    }
    const lines = await this._lines;
    if (this._ctx.frame !== frame) {
      return;
    }
    const codeLines = new Set<number>();
    for (const ins of frame.original_bytecode) {
      if (ins.line !== null) {
        codeLines.add(ins.line);
      }
    }
    const breaks = groupByLine(frame.graph_breaks.filter(gb => index.lineKey(gb.filename, gb.line) === `cell:${gb.line}`));
    const guards = groupByLine(frame.guards);
    const error = report.error;
    const errorLine = error && (error.compile_id === null || error.compile_id === frame.compile_id) ? error.line : null;
    const table = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-sourceLines' });
    lines.forEach((line, i) => {
      const lineno = i + 1;
      const gutter = h('span', { class: 'jp-DynamoExplorer-gutter' });
      const gbs = breaks.get(lineno);
      const gs = guards.get(lineno);
      if (gbs) {
        gutter.appendChild(
          h('span', {
            class: 'jp-DynamoExplorer-mark jp-DynamoExplorer-mark-break',
            text: '●',
            title: gbs.map(gb => `graph break: ${gb.gb_type}: ${gb.reason}`).join('\n'),
            data: { mark: 'break' }
          })
        );
      }
      if (gs) {
        gutter.appendChild(
          h('span', {
            class: 'jp-DynamoExplorer-mark jp-DynamoExplorer-mark-guard',
            text: 'G',
            title: gs.map(g => `${g.type} ${g.source}`).join('\n'),
            data: { mark: 'guard' }
          })
        );
      }
      if (errorLine === lineno) {
        gutter.appendChild(
          h('span', { class: 'jp-DynamoExplorer-mark jp-DynamoExplorer-mark-error', text: '✖', title: `${error!.type}: ${error!.message}`, data: { mark: 'error' } })
        );
      }
      const code = h('span', { class: 'jp-DynamoExplorer-lineCode' });
      appendLine(code, line);
      const row = h('div', { class: 'jp-DynamoExplorer-row', data: { line: String(lineno) } }, gutter, h('span', { class: 'jp-DynamoExplorer-lineno', text: String(lineno) }), code);
      if (codeLines.has(lineno)) {
        row.classList.add(lineColourClass(lineno));
        linker.register(GROUP, row, `cell:${lineno}`);
      } else if (gbs || gs) {
        linker.register(GROUP, row, `cell:${lineno}`);
      }
      if (gbs) {
        row.classList.add('jp-mod-break');
      }
      if (gs) {
        row.classList.add('jp-mod-guarded');
      }
      if (errorLine === lineno) {
        row.classList.add('jp-mod-error');
      }
      this._rows.set(lineno, row);
      table.appendChild(row);
    });
    this._body.appendChild(table);
    const first = this._rows.get(frame.code.firstlineno);
    if (first) {
      scrollIntoPane(this._body, first);
    }
  }

  /**
   * Scroll to a line and flash it.
   */
  flashLine(line: number): boolean {
    const row = this._rows.get(line);
    if (!row) {
      return false;
    }
    for (const other of this._rows.values()) {
      other.classList.remove('jp-mod-selected');
    }
    row.classList.add('jp-mod-selected');
    scrollIntoPane(this._body, row);
    row.classList.remove('jp-mod-flash');
    void row.offsetWidth;
    row.classList.add('jp-mod-flash');
    return true;
  }
}

/** Records with a line, by line. */
function groupByLine<T extends GraphBreak | Guard>(items: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    if (item.line === null || item.line === undefined) {
      continue;
    }
    const list = out.get(item.line);
    if (list) {
      list.push(item);
    } else {
      out.set(item.line, [item]);
    }
  }
  return out;
}

/** Scroll a row into view inside its pane only (never the whole notebook). */
export function scrollIntoPane(container: HTMLElement, row: HTMLElement): void {
  const top = row.offsetTop - container.clientHeight / 3;
  container.scrollTop = Math.max(0, top);
}
