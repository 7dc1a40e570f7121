/**
 * Opening a gutter mark, a Try-a-fix target or a call's graph break in a drawn report: through the graph-breaks
 * pane or the guards pane of the view (model/cellMarks.ts says what each mark points at); an export call in the
 * Export pane, a fix in the Try a fix pane (`revealExportCall`, `revealFix`).
 */
import type { PaneName } from '../schema';
import type { MarkTarget } from '../model/cellMarks';
import type { IReportView } from './context';
import { GraphBreaksPane } from './panes/graphBreaks';

/**
 * Open what a mark points at in a report view: a break through the graph-breaks pane (its frame selected,
 * its source line highlighted, its card selected and scrolled to); a recompile by selecting the recompiled
 * frame, highlighting the failed guard's line, and scrolling to the recompile reasons of the guards pane.
 * Resolves false when the view does not hold the target.
 */
export async function openMark(view: IReportView, target: MarkTarget): Promise<boolean> {
  if (target.kind === 'break') {
    const pane = view.panes.get('graph-breaks');
    const row = pane instanceof GraphBreaksPane ? pane.rows.find(r => r.key === target.key) : undefined;
    if (!pane || !row) {
      return false;
    }
    await (pane as GraphBreaksPane).open(row);
    view.layout.reveal('graph-breaks');
    return true;
  }
  const frame = view.index.frames.get(target.compileId);
  if (!frame) {
    return false;
  }
  if (target.line !== null) {
    await view.jumpToLine(frame, target.line);
  } else {
    await view.selectFrame(frame.compile_id);
  }
  revealIn(view, 'guards', el => el.querySelector<HTMLElement>('[data-section="recompile-reasons"]') ?? el);
  return true;
}

/** Bring the Export pane into view on the run's export call `index` (minor 21), flashed; false when it has none. */
export function revealExportCall(view: IReportView, index: number): boolean {
  return revealIn(view, 'export', el =>
    [...el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-exportCall')].find(c => c.dataset.index === String(index))
  );
}

/** Bring the Try a fix pane into view on the fix `name`'s card, flashed; false when it has none. */
export function revealFix(view: IReportView, name: string): boolean {
  return revealIn(view, 'try-fix', el =>
    [...el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-fix')].find(c => c.dataset.fix === name)
  );
}

/** Reveal pane `name` and scroll to and flash what `find` finds in it. */
function revealIn(
  view: IReportView,
  name: PaneName,
  find: (pane: HTMLElement) => HTMLElement | null | undefined
): boolean {
  const pane = view.panes.get(name)?.element;
  const section = pane ? find(pane) : null;
  if (!section) {
    return false;
  }
  view.layout.reveal(name);
  if (typeof section.scrollIntoView === 'function') {
    section.scrollIntoView({ block: 'nearest' });
  }
  section.classList.remove('jp-mod-flash');
  void section.offsetWidth;
  section.classList.add('jp-mod-flash');
  return true;
}
