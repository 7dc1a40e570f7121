/**
 * Opening a gutter mark, a Try-a-fix target or a call's graph break in a drawn report: through the graph-breaks
 * pane or the guards pane of the view (model/cellMarks.ts says what each mark points at).
 */
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
  view.layout.reveal('guards');
  const guards = view.panes.get('guards')?.element;
  const section = guards?.querySelector<HTMLElement>('[data-section="recompile-reasons"]') ?? guards;
  if (section) {
    if (typeof section.scrollIntoView === 'function') {
      section.scrollIntoView({ block: 'nearest' });
    }
    section.classList.remove('jp-mod-flash');
    void section.offsetWidth;
    section.classList.add('jp-mod-flash');
  }
  return true;
}
