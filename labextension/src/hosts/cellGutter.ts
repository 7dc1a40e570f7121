/**
 * The JupyterLab plugin of Dynamo Explorer (package.json `jupyterlab.extension`, beside the MIME extension
 * of index.ts): gutter marks in the `%%dynamo` cell's own editor on the lines of its graph breaks and
 * recompiles (cellMarks.ts says which; editorMarks.ts draws them with CodeMirror 6). A click on a mark opens
 * that break or recompile in the report below the cell.
 *
 * How the two find each other: the renderer announces each drawn view in reportHub.ts; the plugin finds the
 * notebook cell whose output area holds the view's node (INotebookTracker), and draws the marks whose line
 * still reads as the report ran it (so a report shown in another cell marks nothing).
 *
 * When marks go: when the report is withdrawn (its output cleared or replaced, which re-running the cell
 * does first; the cell deleted), the cell's marks are removed; a new report draws its own. While the cell is
 * edited, each mark follows its line and is dropped once that line's text changes (editorMarks.ts).
 *
 * The plugin also sets the notebook host of the Try a fix pane (notebookFix.ts): its Try it button runs the
 * cell again with a fix, in a new cell below.
 *
 * Works in JupyterLab 4 and Notebook 7 (both provide INotebookTracker and CodeMirror 6 cell editors). The
 * standalone page and the static view have no cell editor and no plugin.
 */
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import type { CodeMirrorEditor } from '@jupyterlab/codemirror';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import { cellMarks } from '../model/cellMarks';
import { openMark } from '../view/openMark';
import { setEditorMarks, type IEditorMark } from './editorMarks';
import { NotebookFixHost } from './notebookFix';
import { onReports, setReportHost, shownReports, type IShownReport } from '../view/reportHub';

/** A notebook cell, as the tracker's panels hold them. */
type NotebookCell = NotebookPanel['content']['widgets'][number];

/**
 * Keeps the marks of every notebook cell in step with the reports drawn in its output area.
 */
export class CellGutter {
  /** The report whose marks each cell shows. */
  private readonly _owners = new Map<NotebookCell, IShownReport>();
  private readonly _stop: () => void;

  constructor(private readonly _tracker: INotebookTracker) {
    this._stop = onReports((report, shown) => {
      if (shown) {
        void this._show(report);
      } else {
        this._withdraw(report);
      }
    });
    for (const report of shownReports()) {
      void this._show(report);
    }
  }

  /** Stop listening; the marks drawn stay until their cells re-render. */
  dispose(): void {
    this._stop();
    this._owners.clear();
  }

  /** The notebook cell whose output area holds a node, or null. */
  cellOf(node: HTMLElement): NotebookCell | null {
    let found: NotebookCell | null = null;
    this._tracker.forEach(panel => {
      for (const cell of panel.content.widgets) {
        const output = (cell as { outputArea?: { node: HTMLElement } }).outputArea;
        if (!found && output && output.node.contains(node)) {
          found = cell;
        }
      }
    });
    return found;
  }

  /** Draw a report's marks in the editor of the cell that shows it. */
  private async _show(report: IShownReport): Promise<void> {
    const cell = this.cellOf(report.node);
    if (!cell) {
      return; // not in a notebook cell: an output view, a console, the standalone page
    }
    this._owners.set(cell, report);
    await cell.ready;
    if (this._owners.get(cell) !== report || cell.isDisposed) {
      return; // replaced or withdrawn meanwhile
    }
    draw(cell, editorMarksOf(report));
  }

  /** A report went away: remove its marks, or draw those of another report the cell still shows. */
  private _withdraw(report: IShownReport): void {
    for (const [cell, owner] of this._owners) {
      if (owner.node !== report.node) {
        continue;
      }
      this._owners.delete(cell);
      if (!cell.isDisposed) {
        draw(cell, []);
      }
      const other = shownReports().find(r => r.node !== report.node && this.cellOf(r.node) === cell);
      if (other) {
        void this._show(other);
      }
    }
  }
}

/** The marks of a report for its cell's editor, each opening its target in that report's view. */
function editorMarksOf(report: IShownReport): IEditorMark[] {
  const lines = report.view.report.cell.source.split('\n');
  return cellMarks(report.view.report, report.view.index).map(mark => ({
    line: mark.line,
    text: lines[mark.line - 1] ?? '',
    kind: mark.kind,
    title: mark.title,
    open: () => {
      openMark(report.view, mark.targets[0]).catch((error: unknown) => {
        console.error('Dynamo Explorer: could not open the mark', error);
      });
    }
  }));
}

/** Draw marks in a cell's editor when it is a CodeMirror 6 editor (JupyterLab 4, Notebook 7). */
function draw(cell: NotebookCell, marks: IEditorMark[]): void {
  const editor = cell.editor as Partial<CodeMirrorEditor> | null;
  if (!editor || typeof editor.injectExtension !== 'function' || editor.isDisposed || !editor.editor) {
    return;
  }
  setEditorMarks(editor.editor, marks, extension => editor.injectExtension!(extension));
}

/**
 * The plugin JupyterLab and Notebook 7 load (package.json `jupyterlab.extension`).
 */
const plugin: JupyterFrontEndPlugin<void> = {
  id: 'dynamo-explorer:cell-gutter',
  description: "Marks the lines of a %%dynamo cell's graph breaks and recompiles in the cell's own editor.",
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker): void => {
    new CellGutter(tracker);
    setReportHost(new NotebookFixHost(tracker)); // the Try a fix pane's button (view/panes/tryFix.ts)
  }
};

export default plugin;
