/**
 * The notebook host of the Try a fix pane (reportHub.ts `IReportHost`), set by the notebook plugin
 * (cellGutter.ts): it finds the notebook cell whose output area holds a drawn report (INotebookTracker), reads
 * its source, and runs a cell with `--try NAME` below it (NotebookActions): the new cell's own output is the
 * report of the run with the fix, kept in the notebook beside the original. It also asks the notebook's kernel for
 * a part a report holds only in part (schema `parts_cut`), through a comm of our target.
 *
 * Works in JupyterLab 4 and Notebook 7 (both provide INotebookTracker). The pane asks for the run only after
 * the user confirmed that the cell runs again (view/panes/tryFix.ts).
 */
import { NotebookActions, type INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import type { IReportHost } from '../view/reportHub';

/** The comm target `%load_ext kernel_ext` registers for parts (kernel_ext/parts.py `COMM_TARGET`). */
export const PARTS_COMM_TARGET = 'dynamo_explorer.parts';
/** How long a part may take (a busy kernel answers once its cell is done). */
const PART_TIMEOUT_MS = 120_000;

/** A notebook cell, as the tracker's panels hold them. */
type NotebookCell = NotebookPanel['content']['widgets'][number];

/**
 * Runs a report's cell again, with a fix, in a new cell below it.
 */
export class NotebookFixHost implements IReportHost {
  constructor(private readonly _tracker: INotebookTracker) {}

  /** The source of the code cell whose output area holds `node`, or null. */
  cellSource(node: HTMLElement): string | null {
    const found = this._find(node);
    return found ? found.cell.model.sharedModel.getSource() : null;
  }

  /**
   * Insert a code cell below the cell that holds `node`, set its source, scroll to it and run it. Resolves
   * once the run is queued (the run itself goes on in the kernel; its report replaces the new cell's output).
   */
  async runBelow(node: HTMLElement, source: string): Promise<void> {
    const found = this._find(node);
    if (!found) {
      throw new Error('the report is no longer in a notebook cell');
    }
    const { panel, cell } = found;
    const notebook = panel.content;
    notebook.activeCellIndex = notebook.widgets.indexOf(cell);
    notebook.deselectAll();
    NotebookActions.insertBelow(notebook);
    if (notebook.activeCell?.model.type !== 'code') {
      NotebookActions.changeCellType(notebook, 'code');
    }
    const inserted = notebook.activeCell;
    if (!inserted || inserted === cell) {
      throw new Error('could not insert a cell below');
    }
    inserted.model.sharedModel.setSource(source);
    await inserted.ready;
    void notebook.scrollToCell(inserted);
    void NotebookActions.runCells(notebook, [inserted], panel.sessionContext).catch((error: unknown) => {
      console.error('Dynamo Explorer: the cell with the fix did not run', error);
    });
  }

  /**
   * Ask the notebook's kernel for a part of the report drawn at `node` (kernel_ext/parts.py): a comm of target
   * `PARTS_COMM_TARGET`, opened with `{key}`, answers once and closes.
   */
  loadPart(node: HTMLElement, key: string): Promise<unknown> {
    return this._ask(node, { key });
  }

  /**
   * Ask the notebook's kernel to put every part into the output of the report drawn at `node`, which lacks the part
   * `key` (kernel_ext/parts.py, [Note: an output completed once drawn]): the same comm, opened with `{complete}`.
   */
  completeParts(node: HTMLElement, key: string): Promise<unknown> {
    return this._ask(node, { complete: key });
  }

  /** Open a comm of target `PARTS_COMM_TARGET` with `data` and resolve with the kernel's one answer. */
  private _ask(node: HTMLElement, data: { key: string } | { complete: string }): Promise<unknown> {
    const kernel = this._find(node)?.panel.sessionContext.session?.kernel;
    if (!kernel) {
      return Promise.reject(new Error('no kernel is running for this notebook: run the cell again'));
    }
    return new Promise((resolve, reject) => {
      const comm = kernel.createComm(PARTS_COMM_TARGET);
      const timer = setTimeout(() => {
        reject(new Error('the kernel did not answer (is it busy, or was %load_ext kernel_ext run in it?)'));
        if (!comm.isDisposed) {
          comm.dispose();
        }
      }, PART_TIMEOUT_MS);
      let answered = false;
      comm.onMsg = msg => {
        answered = true;
        clearTimeout(timer);
        resolve(msg.content.data);
      };
      // closed with no answer: the kernel has no such target (a new kernel, %load_ext kernel_ext not run in it)
      comm.onClose = () => {
        if (!answered) {
          clearTimeout(timer);
          reject(new Error('this kernel did not run the cell (run %load_ext kernel_ext and the cell again)'));
        }
      };
      comm.open(data);
    });
  }

  /** The notebook panel and code cell whose output area holds a node, or null. */
  private _find(node: HTMLElement): { panel: NotebookPanel; cell: NotebookCell } | null {
    let found: { panel: NotebookPanel; cell: NotebookCell } | null = null;
    this._tracker.forEach(panel => {
      if (found || panel.isDisposed) {
        return;
      }
      for (const cell of panel.content.widgets) {
        const output = (cell as { outputArea?: { node: HTMLElement } }).outputArea;
        if (cell.model.type === 'code' && output && output.node.contains(node)) {
          found = { panel, cell };
          return;
        }
      }
    });
    return found;
  }
}
