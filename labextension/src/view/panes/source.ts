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

/** A gutter mark: what it marks (its CSS modifier and `data-mark`), its glyph and its tooltip. */
interface IMark {
  kind: 'break' | 'guard' | 'error' | 'export';
  text: string;
  title: string;
}

/** How one row is drawn. */
interface IRow {
  marks: IMark[];
  classes: string[];
  key: string | null;
}

/**
 * The source pane.
 */
export class SourcePane extends Pane {
  private _rows = new Map<number, HTMLElement>();
  private readonly _lines = new Map<string, Promise<Line[]>>();

  constructor(ctx: IViewContext) {
    super(ctx, 'source');
  }

  /**
   * No frame (a cell in which Dynamo compiled nothing, an export's cell): the cell itself, its exception and the
   * lines where an export failed marked; the placeholder when the report has no cell source.
   */
  protected async renderNoFrame(): Promise<void> {
    this._reset();
    const { report } = this.ctx;
    const text = report.cell.source;
    if (!text) {
      super.renderNoFrame();
      return;
    }
    this.title.textContent = `${PANE_TITLES.source} (cell)`;
    const lines = await this._highlighted(text);
    if (this.frame !== null) {
      return;
    }
    const marks = this._exportMarks();
    const mark = (line: number, m: IMark): void => void marks.set(line, [...(marks.get(line) ?? []), m]);
    const error = report.error;
    if (error && error.line !== null && error.compile_id === null) {
      mark(error.line, { kind: 'error', text: '✖', title: `${error.type}: ${error.message}` });
    }
    this.body.appendChild(
      this._table(lines, 1, lineno => {
        const here = marks.get(lineno) ?? [];
        return { marks: here, key: here.length > 0 ? `cell:${lineno}` : null, classes: [] };
      })
    );
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
    const exportMarks = frame.code.in_cell ? this._exportMarks() : new Map<number, IMark[]>();
    const table = this._table(lines, firstLine, lineno => {
      const gbs = breaks.get(lineno);
      const gs = guards.get(lineno);
      const marks: IMark[] = [];
      const classes: string[] = [];
      if (gbs) {
        const title = gbs.map(gb => `graph break: ${gb.gb_type}: ${gb.reason}`).join('\n');
        marks.push({ kind: 'break', text: '●', title });
        classes.push('jp-mod-break');
      }
      if (gs) {
        marks.push({ kind: 'guard', text: 'G', title: gs.map(g => `${g.type} ${g.source}`).join('\n') });
        classes.push('jp-mod-guarded');
      }
      if (errorLine === lineno) {
        marks.push({ kind: 'error', text: '✖', title: `${error!.type}: ${error!.message}` });
      }
      marks.push(...(exportMarks.get(lineno) ?? []));
      const key = ownKey(lineno);
      if (codeLines.has(lineno)) {
        classes.push(lineColourClass(lineno));
      }
      return { marks, classes, key: codeLines.has(lineno) || marks.length > 0 ? key : null };
    });
    this.body.appendChild(table);
    const first = this._rows.get(frame.code.firstlineno);
    if (first) {
      scrollIntoPane(this.body, first);
    }
  }

  /** The cell lines where an export call of the run failed, each with its mark. */
  private _exportMarks(): Map<number, IMark[]> {
    const { report, index } = this.ctx;
    const marks = new Map<number, IMark[]>();
    for (const call of report.exports ?? []) {
      const f = call.failure;
      if (f && f.line !== null && index.lineKey(f.filename, f.line) === `cell:${f.line}`) {
        const m: IMark = { kind: 'export', text: 'E', title: `${call.api} failed: ${f.exception}: ${f.what}` };
        marks.set(f.line, [...(marks.get(f.line) ?? []), m]);
      }
    }
    return marks;
  }

  /**
   * The rows of a text from `firstLine` on: each with its gutter marks, its classes and the line key it links
   * under (none: not linked), as `row(lineno)` says; an error mark also marks the row.
   */
  private _table(lines: Line[], firstLine: number, row: (lineno: number) => IRow): HTMLElement {
    const table = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-sourceLines' });
    lines.forEach((line, i) => {
      const lineno = firstLine + i;
      const { marks, classes, key } = row(lineno);
      const gutter = h(
        'span',
        { class: 'jp-DynamoExplorer-gutter' },
        ...marks.map(m =>
          h('span', {
            class: `jp-DynamoExplorer-mark jp-DynamoExplorer-mark-${m.kind}`,
            text: m.text,
            title: m.title,
            data: { mark: m.kind }
          })
        )
      );
      const code = h('span', { class: 'jp-DynamoExplorer-lineCode' });
      appendLine(code, line);
      const el = h(
        'div',
        { class: 'jp-DynamoExplorer-row', data: { line: String(lineno) } },
        gutter,
        h('span', { class: 'jp-DynamoExplorer-lineno', text: String(lineno) }),
        code
      );
      el.classList.add(...classes);
      if (marks.some(m => m.kind === 'error')) {
        el.classList.add('jp-mod-error');
      }
      if (key !== null) {
        this.link(el, key);
      }
      this._rows.set(lineno, el);
      table.appendChild(el);
    });
    return table;
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
