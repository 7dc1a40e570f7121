/**
 * Source pane: the frame's source with its lines coloured, and gutter marks for graph breaks, guards and
 * the cell's exception. The cell's own code comes from `report.cell`; code of an earlier notebook cell, of
 * the user's files or of a library from `report.sources` ([Note: sources] in compiler/collectors/sources.py),
 * labelled `In [2]` or by its path. Rows link by line to the bytecode panes and the FX graph.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../../dom';
import { appendLine, highlightLines, type Line } from '../highlight';
import { lineColourClass } from '../linking';
import { PANE_TITLES, type Frame, type GraphBreak, type Guard } from '../../schema';
import { Pane } from './pane';

/**
 * The source pane.
 */
export class SourcePane extends Pane {
  private _rows = new Map<number, HTMLElement>();
  private readonly _lines = new Map<string, Promise<Line[]>>();

  constructor(ctx: IViewContext) {
    super(ctx, 'source');
  }

  /** No frame: the placeholder, no rows. */
  protected renderNoFrame(): void {
    this._reset();
    super.renderNoFrame();
  }

  /**
   * Show the source of a frame: the cell's, or the excerpt of the earlier cell or file its code lives in.
   */
  protected async render(frame: Frame): Promise<void> {
    const { index, report } = this.ctx;
    this._reset();
    const title = PANE_TITLES.source;
    let text: string;
    let firstLine = 1;
    if (frame.code.in_cell) {
      this.title.textContent = `${title} (cell)`;
      text = report.cell.source;
    } else {
      const found = index.excerptAt(frame.code.filename, frame.code.firstlineno);
      if (!found) {
        this.title.textContent = title;
        this.showEmpty(
          `${frame.code.name} is defined at ${index.place(frame.code.filename, frame.code.firstlineno)}; its source is not in the report.`
        );
        return;
      }
      const { source, excerpt } = found;
      this.title.textContent = `${title} (${source.label}${source.kind === 'library' ? ' · library, read-only' : ''})`;
      this.title.title = source.filename;
      text = excerpt.text;
      firstLine = excerpt.first_line;
    }
    const lines = await this._highlighted(text);
    if (!this.isShown(frame)) {
      return;
    }
    const codeLines = new Set<number>();
    for (const ins of frame.original_bytecode) {
      if (ins.line !== null) {
        codeLines.add(ins.line);
      }
    }
    const ownKey = (line: number): string | null => index.frameLineKey(frame, line);
    const breaks = groupByLine(
      frame.graph_breaks.filter(gb => gb.line !== null && index.lineKey(gb.filename, gb.line) === ownKey(gb.line))
    );
    const guards = groupByLine(frame.guards);
    const error = report.error;
    const errorLine =
      frame.code.in_cell && error && (error.compile_id === null || error.compile_id === frame.compile_id)
        ? error.line
        : null;
    const table = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-sourceLines' });
    lines.forEach((line, i) => {
      const lineno = firstLine + i;
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
          h('span', {
            class: 'jp-DynamoExplorer-mark jp-DynamoExplorer-mark-error',
            text: '✖',
            title: `${error!.type}: ${error!.message}`,
            data: { mark: 'error' }
          })
        );
      }
      const code = h('span', { class: 'jp-DynamoExplorer-lineCode' });
      appendLine(code, line);
      const row = h(
        'div',
        { class: 'jp-DynamoExplorer-row', data: { line: String(lineno) } },
        gutter,
        h('span', { class: 'jp-DynamoExplorer-lineno', text: String(lineno) }),
        code
      );
      const key = ownKey(lineno);
      if (codeLines.has(lineno)) {
        row.classList.add(lineColourClass(lineno));
        this.link(row, key);
      } else if (gbs || gs) {
        this.link(row, key);
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
    this.body.appendChild(table);
    const first = this._rows.get(frame.code.firstlineno);
    if (first) {
      scrollIntoPane(this.body, first);
    }
  }

  /** Forget the rows drawn and empty the body. */
  private _reset(): void {
    this._rows = new Map();
    clear(this.body);
    this.body.scrollLeft = 0;
  }

  /** Highlighted lines of a text, computed once per text. */
  private _highlighted(text: string): Promise<Line[]> {
    let lines = this._lines.get(text);
    if (!lines) {
      lines = highlightLines(text, 'python').catch(() => text.split('\n').map(t => [[t, '']] as Line));
      this._lines.set(text, lines);
    }
    return lines;
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
    scrollIntoPane(this.body, row);
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
