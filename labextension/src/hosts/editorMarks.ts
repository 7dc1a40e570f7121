/**
 * The CodeMirror 6 side of the cell gutter (cellGutter.ts): a gutter of graph-break and recompile marks in
 * one editor, its state field, and how the marks follow edits.
 *
 * - `setEditorMarks(view, marks)`: draw marks in an editor (an empty list removes the gutter). The gutter
 *   lives in a compartment of its own, added to the editor once with `StateEffect.appendConfig` (what
 *   JupyterLab's `CodeMirrorEditor.injectExtension` does); an editor without marks has no extra gutter.
 * - On edit, a mark follows its line (lines inserted or deleted above move it) and is dropped as soon as its
 *   line's text is no longer the text the report ran, or the line is deleted: a mark never points at code
 *   that did not produce it. Re-running the cell replaces all marks.
 *
 * @codemirror/state and @codemirror/view are JupyterLab's own instances (package.json: shared singletons,
 * not bundled): an extension built from another copy would be refused by JupyterLab's editors.
 */
import {
  Compartment,
  MapMode,
  RangeSet,
  StateEffect,
  StateField,
  type EditorState,
  type Range
} from '@codemirror/state';
import { EditorView, gutter, GutterMarker } from '@codemirror/view';

/** CSS class of the gutter (`cm-gutter jp-DynamoExplorer-cellGutter`). */
export const GUTTER_CLASS = 'jp-DynamoExplorer-cellGutter';

/** One mark to draw: a 1-based line, the line's text the report ran, and how it looks and what it opens. */
export interface IEditorMark {
  line: number;
  /** The text of the line when the report ran it: the mark is dropped once the line reads otherwise. */
  text: string;
  kind: 'break' | 'recompile';
  /** Tooltip. */
  title: string;
  /** Called on a click. */
  open: () => void;
}

/**
 * A mark in the gutter: a small symbol with its tooltip, a button for the mouse and the keyboard.
 */
export class CellMarker extends GutterMarker {
  constructor(readonly mark: IEditorMark) {
    super();
  }

  /** The same mark object draws the same element. */
  eq(other: GutterMarker): boolean {
    return other instanceof CellMarker && other.mark === this.mark;
  }

  /** The marker's element: `●` for a graph break, `↻` for a recompile. */
  toDOM(): Node {
    const { mark } = this;
    const el = document.createElement('span');
    el.className = `jp-DynamoExplorer-cellMark jp-mod-${mark.kind}`;
    el.textContent = mark.kind === 'break' ? '●' : '↻';
    el.title = mark.title;
    el.dataset.mark = mark.kind;
    el.dataset.reportLine = String(mark.line); // the line the report names (edits above may move the mark)
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', mark.title);
    el.addEventListener('mousedown', event => event.preventDefault()); // keep the editor's focus and selection
    el.addEventListener('click', event => {
      event.preventDefault();
      event.stopPropagation();
      mark.open();
    });
    return el;
  }
}

/** The marks of one editor, at the start of their lines. */
export const marksField = StateField.define<RangeSet<CellMarker>>({
  create: () => RangeSet.empty,
  update(marks, tr) {
    return tr.docChanged ? followEdits(marks, tr.changes, tr.state) : marks;
  }
});

/**
 * Map marks through a change: each moves with its line, and is dropped when its line was deleted or its
 * text is not the text the report ran any more.
 */
function followEdits(
  marks: RangeSet<CellMarker>,
  changes: { mapPos(pos: number, assoc: number, mode: MapMode): number | null },
  state: EditorState
): RangeSet<CellMarker> {
  const kept: Range<CellMarker>[] = [];
  for (let it = marks.iter(); it.value; it.next()) {
    const pos = changes.mapPos(it.from, 1, MapMode.TrackDel);
    if (pos === null) {
      continue;
    }
    const line = state.doc.lineAt(pos);
    if (line.from === pos && line.text === it.value.mark.text) {
      kept.push(it.value.range(pos));
    }
  }
  return RangeSet.of(kept, true);
}

/** The marks of a document: those whose line still reads as the report ran it. */
export function markSet(state: EditorState, marks: readonly IEditorMark[]): RangeSet<CellMarker> {
  const ranges: Range<CellMarker>[] = [];
  for (const mark of marks) {
    if (mark.line >= 1 && mark.line <= state.doc.lines) {
      const line = state.doc.line(mark.line);
      if (line.text === mark.text) {
        ranges.push(new CellMarker(mark).range(line.from));
      }
    }
  }
  return RangeSet.of(ranges, true);
}

/** The gutter showing `marksField`. */
const marksGutter = gutter({
  class: GUTTER_CLASS,
  markers: view => view.state.field(marksField)
});

/** Each editor's compartment for the gutter (added once, on the first marks). */
const compartments = new WeakMap<EditorView, Compartment>();

/**
 * The extension that draws `marks` in a state (what `setEditorMarks` puts in an editor's compartment).
 */
export function marksExtension(
  marks: readonly IEditorMark[]
): [ReturnType<typeof marksField.init>, typeof marksGutter] {
  return [marksField.init(state => markSet(state, marks)), marksGutter];
}

/**
 * Draw marks in an editor, replacing its previous ones; an empty list removes the gutter.
 * `inject` adds an extension to the editor (JupyterLab's `CodeMirrorEditor.injectExtension`); without it
 * the extension is appended to the view's configuration directly.
 */
export function setEditorMarks(
  view: EditorView,
  marks: readonly IEditorMark[],
  inject?: (extension: ReturnType<Compartment['of']>) => void
): void {
  const content = marks.length > 0 ? marksExtension(marks) : [];
  let compartment = compartments.get(view);
  if (!compartment) {
    if (marks.length === 0) {
      return;
    }
    compartment = new Compartment();
    compartments.set(view, compartment);
    const extension = compartment.of(content);
    if (inject) {
      inject(extension);
    } else {
      view.dispatch({ effects: StateEffect.appendConfig.of(extension) });
    }
    return;
  }
  view.dispatch({ effects: compartment.reconfigure(content) });
}

/** The marks an editor shows now (lines, 1-based, in order). */
export function editorMarks(view: EditorView): Array<{ line: number; mark: IEditorMark }> {
  const out: Array<{ line: number; mark: IEditorMark }> = [];
  const set = view.state.field(marksField, false);
  if (set) {
    for (let it = set.iter(); it.value; it.next()) {
      out.push({ line: view.state.doc.lineAt(it.from).number, mark: it.value.mark });
    }
  }
  return out;
}
