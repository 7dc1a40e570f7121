/**
 * The cell gutter without JupyterLab: which lines of the cell get a mark (cellMarks.ts), how the marks follow
 * edits in a real CodeMirror 6 editor (editorMarks.ts), what a click on a mark opens in the rendered report
 * (`openMark`), and the hub through which the renderer announces its views (reportHub.ts). The plugin's
 * wiring in a real JupyterLab is tests/browser/test_viewer_gutter.py.
 */
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it } from 'vitest';
import { cellMarks, lineMatches, recompileLine } from '../src/model/cellMarks';
import { openMark } from '../src/view/openMark';
import {
  editorMarks,
  GUTTER_CLASS,
  marksExtension,
  marksField,
  setEditorMarks,
  type IEditorMark
} from '../src/hosts/editorMarks';
import { ReportIndex } from '../src/model/model';
import { onReports, shownReports, type IShownReport } from '../src/view/reportHub';
import type { CompileReport } from '../src/schema';
import { golden, pane, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** toy_example with [0/0] recompiled as [0/1] (a dtype change of `a`) and an explicit break on line 9. */
function toy(): CompileReport {
  const report = golden('toy_example');
  const again = structuredClone(report.frames[0]);
  again.compile_id = '0/1';
  again.recompile_reasons = [
    { failed_compile_id: '0/0', reason: "tensor 'a' dtype mismatch. expected Float, actual Double" }
  ];
  report.frames.push(again);
  report.frames[1].graph_breaks.push({
    ...report.frames[0].graph_breaks[0],
    gb_id: 'GB0025',
    gb_type: 'Call to `torch._dynamo.graph_break()`',
    reason: 'Call to `torch._dynamo.graph_break()`',
    line: 9,
    user_stack: []
  });
  return report;
}

describe('cell marks', () => {
  it('marks each break line once and the recompile at the failed guard’s line', () => {
    const report = toy();
    const marks = cellMarks(report);
    expect(marks.map(m => [m.line, m.kind])).toEqual([
      [7, 'recompile'], // TENSOR_MATCH L['a'] of [0/0] was introduced on line 7
      [8, 'break'],
      [9, 'break']
    ]);
    const branch = marks[1];
    expect(branch.title).toBe('graph break: Data-dependent branching · 2 compiles');
    expect(branch.targets).toHaveLength(1);
    expect(marks[0].title).toBe(
      "recompile [0/1] of toy_example: tensor 'a' dtype mismatch. expected Float, actual Double"
    );
    expect(marks[0].targets).toEqual([{ kind: 'recompile', compileId: '0/1', line: 7 }]);
  });

  it('finds the recompile line from the reason’s user stack, else the code’s first line', () => {
    const listAppend = golden('list_append'); // guards named by a plain local: `not items`, `len(items) == 1`
    const index = new ReportIndex(listAppend);
    const frame = listAppend.frames.find(f => f.compile_id === '0/1')!;
    expect(recompileLine(listAppend, index, frame)).toEqual({ line: 4, guard: true });
    const dtype = golden('recompile_dtype');
    const recompiled = dtype.frames.find(f => f.recompile_reasons.length > 0)!;
    recompiled.recompile_reasons = [{ failed_compile_id: null, reason: 'an unknown guard failed' }];
    dtype.frames[0].guards = [];
    const line = recompileLine(dtype, new ReportIndex(dtype), recompiled);
    expect(line).toEqual({ line: recompiled.code.firstlineno, guard: false });
    // code of another file gets no mark in the cell
    recompiled.code = { ...recompiled.code, filename: '/lib/x.py', in_cell: false };
    expect(recompileLine(dtype, new ReportIndex(dtype), recompiled)).toBeNull();
  });

  it('names the earlier cell a break is in and marks the line of this cell that called it', () => {
    const report = golden('earlier_cell');
    const [mark] = cellMarks(report);
    const gb = report.frames.flatMap(f => f.graph_breaks)[0];
    const call = gb.user_stack.filter(s => s.filename === report.cell.filename).pop()!;
    expect(mark.line).toBe(call.line);
    expect(mark.title).toBe(`graph break: Data-dependent branching (in In [1], line ${gb.line}) · 1 compile`);
  });

  it("draws a mark only on a line that reads as the report's line", () => {
    const report = toy();
    const lines = report.cell.source.split('\n');
    expect(lineMatches(report, 8, lines[7])).toBe(true);
    expect(lineMatches(report, 8, `${lines[7]}  # edited`)).toBe(false);
    expect(lineMatches(report, 0, '')).toBe(false);
    expect(lineMatches(report, lines.length + 1, '')).toBe(false);
  });
});

/** The marks of a document as the plugin builds them; `opened` records the clicks. */
function marksFor(report: CompileReport, opened: number[]): IEditorMark[] {
  const lines = report.cell.source.split('\n');
  return cellMarks(report).map(m => ({
    line: m.line,
    text: lines[m.line - 1],
    kind: m.kind,
    title: m.title,
    open: () => opened.push(m.line)
  }));
}

/** Lines (1-based) of the marks a state holds. */
function markedLines(state: EditorState): number[] {
  const out: number[] = [];
  for (let it = state.field(marksField).iter(); it.value; it.next()) {
    out.push(state.doc.lineAt(it.from).number);
  }
  return out;
}

describe('editor marks', () => {
  const report = toy();
  const doc = report.cell.source;

  it('follow their lines through edits and go when their line changes', () => {
    let state = EditorState.create({ doc, extensions: marksExtension(marksFor(report, [])) });
    expect(markedLines(state)).toEqual([7, 8, 9]);
    // two lines inserted at the top (Enter at the start of line 1, twice): every mark moves down by two
    state = state.update({ changes: { from: 0, insert: '\n\n' } }).state;
    expect(markedLines(state)).toEqual([9, 10, 11]);
    // Enter at the start of the `if` line: the line moves, its mark with it
    state = state.update({ changes: { from: state.doc.line(10).from, insert: '\n' } }).state;
    expect(markedLines(state)).toEqual([9, 11, 12]);
    // the `if` line edited: its mark goes, the others stay
    const ifLine = state.doc.line(11);
    state = state.update({ changes: { from: ifLine.to - 1, insert: ' and True' } }).state;
    expect(markedLines(state)).toEqual([9, 12]);
    // the line above the last mark deleted with its newline: the mark moves up
    const above = state.doc.line(11);
    state = state.update({ changes: { from: above.from, to: above.to + 1 } }).state;
    expect(markedLines(state)).toEqual([9, 11]);
    // the marked line deleted: its mark goes
    const marked = state.doc.line(11);
    state = state.update({ changes: { from: marked.from, to: marked.to + 1 } }).state;
    expect(markedLines(state)).toEqual([9]);
  });

  it('are not drawn on lines that differ from the report (another cell, or edited since the run)', () => {
    const edited = doc.replace('if b.sum() < 0:', 'if b.sum() < 1:');
    const state = EditorState.create({ doc: edited, extensions: marksExtension(marksFor(report, [])) });
    expect(markedLines(state)).toEqual([7, 9]);
    const other = EditorState.create({ doc: 'rep\n', extensions: marksExtension(marksFor(report, [])) });
    expect(markedLines(other)).toEqual([]);
  });

  it('draw a gutter with one clickable mark per line in a real editor, and go when cleared', () => {
    const parent = document.createElement('div');
    document.body.appendChild(parent);
    const view = new EditorView({ doc, parent });
    expect(view.dom.querySelector(`.${GUTTER_CLASS}`)).toBeNull();
    const opened: number[] = [];
    setEditorMarks(view, marksFor(report, opened));
    const els = Array.from(view.dom.querySelectorAll<HTMLElement>(`.${GUTTER_CLASS} .jp-DynamoExplorer-cellMark`));
    expect(els.map(e => [e.dataset.reportLine, e.dataset.mark])).toEqual([
      ['7', 'recompile'],
      ['8', 'break'],
      ['9', 'break']
    ]);
    expect(els[1].title).toBe('graph break: Data-dependent branching · 2 compiles');
    els[1].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(opened).toEqual([8]);
    expect(editorMarks(view).map(m => m.line)).toEqual([7, 8, 9]);
    // new marks replace the old ones; none removes the gutter
    setEditorMarks(view, marksFor(report, opened).slice(2));
    expect(editorMarks(view).map(m => m.line)).toEqual([9]);
    setEditorMarks(view, []);
    expect(editorMarks(view)).toEqual([]);
    expect(view.dom.querySelector(`.${GUTTER_CLASS}`)).toBeNull();
    view.destroy();
  });
});

describe('opening a mark', () => {
  it('opens a break: its frame, its source line and its card selected', async () => {
    const { root, widget } = await render(toy());
    const view = widget.view!;
    await view.selectFrame('2/0');
    const [, branch, explicit] = cellMarks(view.report, view.index);
    expect(await openMark(view, explicit.targets[0])).toBe(true);
    expect(view.frame?.compile_id).toBe('1/0');
    const card = pane(root, 'graph-breaks').querySelector<HTMLElement>('.jp-DynamoExplorer-break.jp-mod-selected')!;
    expect(card.querySelector('[data-jump]')!.textContent).toBe('line 9');
    expect(pane(root, 'source').querySelector('[data-line="9"]')!.classList.contains('jp-mod-selected')).toBe(true);
    expect(await openMark(view, branch.targets[0])).toBe(true);
    expect(view.frame?.compile_id).toBe('0/0');
    expect(await openMark(view, { kind: 'break', key: 'no such break' })).toBe(false);
  });

  it('opens a recompile: the recompiled frame, the guard’s line, the reasons in view', async () => {
    const { root, widget } = await render(toy());
    const view = widget.view!;
    const [recompile] = cellMarks(view.report, view.index);
    expect(await openMark(view, recompile.targets[0])).toBe(true);
    expect(view.frame?.compile_id).toBe('0/1');
    expect(pane(root, 'source').querySelector('[data-line="7"]')!.classList.contains('jp-mod-selected')).toBe(true);
    const reasons = pane(root, 'guards').querySelector<HTMLElement>('[data-section="recompile-reasons"]')!;
    expect(reasons.classList.contains('jp-mod-flash')).toBe(true);
    expect(await openMark(view, { kind: 'recompile', compileId: '9/9', line: null })).toBe(false);
  });
});

describe('the report hub', () => {
  it('announces each drawn view and withdraws it when re-rendered or disposed', async () => {
    const seen: Array<[IShownReport, boolean]> = [];
    const stop = onReports((report, shown) => seen.push([report, shown]));
    try {
      const { widget } = await render(toy());
      expect(seen).toHaveLength(1);
      expect(seen[0][1]).toBe(true);
      expect(seen[0][0].node).toBe(widget.node);
      expect(seen[0][0].view).toBe(widget.view);
      expect(shownReports().map(r => r.view)).toContain(widget.view);
      widget.dispose();
      expect(seen.map(([, shown]) => shown)).toEqual([true, false]);
      expect(shownReports().map(r => r.node)).not.toContain(widget.node);
    } finally {
      stop();
    }
  });

  it('keeps rendering when a listener throws', async () => {
    const stop = onReports(() => {
      throw new Error('a broken listener');
    });
    const error = console.error;
    console.error = () => undefined;
    try {
      const { root } = await render(toy());
      expect(root.dataset.status).toBe('ready');
    } finally {
      console.error = error;
      stop();
    }
  });
});
