/**
 * What every pane shares: the shell (a titled section with `data-pane`, a toolbar and a body), empty states,
 * and the `Pane` base class: the `update(frame)` entry point the view calls on every frame selection, and the
 * bookkeeping of the line links a pane registers.
 *
 * Adding a pane: a `Pane` subclass in its own file here, one entry in `registry.ts`, one entry in the
 * schema's `x-dynamo-explorer.panes` (its name, title and order), and its CSS file under style/panes/.
 */
import type { IPaneHandle, IReportView, IViewContext } from '../context';
import { clear, h } from '../../dom';
import { PANE_TITLES, type Frame, type PaneName } from '../../schema';

/** Names of the panes (the `data-pane` attribute the browser tests select on), generated from the schema. */
export type { PaneName } from '../../schema';

/** What a per-frame pane shows while no frame is shown (a cell in which Dynamo compiled nothing). */
export const NO_FRAME = '<no frame>';

/** The linker group part of the links a pane makes once, for the whole report. */
const REPORT_PART = 'report';

/** What the parts of a pane drawn by modules of their own draw with: the view, and the pane's line links. */
export interface IPaneParts {
  readonly ctx: IViewContext;
  /** Register a row drawn for the frame shown now under a line key (the pane's `link`). */
  link(el: Element, key: string | null): void;
}

/** The parts of a pane. */
export interface IPaneShell {
  element: HTMLElement;
  title: HTMLElement;
  toolbar: HTMLElement;
  body: HTMLElement;
}

/**
 * Build an empty pane: a section with `data-pane`, titled with the schema's title of the pane unless told.
 */
export function paneShell(name: PaneName, title: string = PANE_TITLES[name]): IPaneShell {
  const titleEl = h('span', { class: 'jp-DynamoExplorer-paneTitleText', text: title });
  const toolbar = h('span', { class: 'jp-DynamoExplorer-toolbar' });
  const body = h('div', { class: 'jp-DynamoExplorer-paneBody' });
  const element = h(
    'section',
    { class: `jp-DynamoExplorer-pane jp-DynamoExplorer-pane-${name}`, data: { pane: name } },
    h('header', { class: 'jp-DynamoExplorer-paneTitle' }, titleEl, toolbar),
    body
  );
  return { element, title: titleEl, toolbar, body };
}

/** Whether a pane's context is the report view itself (it is, in the renderer): it can open other panes. */
export function isView(ctx: IViewContext): ctx is IReportView {
  return 'panes' in ctx && 'layout' in ctx;
}

/**
 * A placeholder text for a pane with nothing to show ('<no bytecode>', as Compiler Explorer writes it).
 */
export function emptyState(text: string): HTMLElement {
  return h('div', { class: 'jp-DynamoExplorer-empty', text });
}

/**
 * Base class of the panes.
 *
 * - The shell: `element` (it carries `data-pane`), `title`, `toolbar` and `body`, from `paneShell()` unless
 *   the subclass passes its own (the header).
 * - `update(frame)`: the view calls it on every frame selection (null: the report has no frame). It records
 *   the frame (`frame`), releases the line links the previous drawing made, then calls `render(frame)`, or
 *   `renderNoFrame()` (by default the '<no frame>' empty state).
 * - Empty states: `showEmpty(text)` replaces the body (or another element) with a placeholder.
 * - Line links: `link()` registers a row drawn for the frame shown now (released by the next `update()` or
 *   by `releaseLinks()` when the pane redraws part of itself); `linkForReport()` registers report-wide
 *   content drawn once; `dispose()` releases everything.
 */
export abstract class Pane implements IPaneHandle {
  readonly element: HTMLElement;
  protected readonly title: HTMLElement;
  protected readonly toolbar: HTMLElement;
  protected readonly body: HTMLElement;
  private _frame: Frame | null = null;
  private readonly _groups = new Set<string>();
  private _disposed = false;

  constructor(
    protected readonly ctx: IViewContext,
    readonly name: PaneName,
    shell: IPaneShell = paneShell(name)
  ) {
    this.element = shell.element;
    this.title = shell.title;
    this.toolbar = shell.toolbar;
    this.body = shell.body;
  }

  /** The frame this pane shows (null before the first update, or when the report has none). */
  get frame(): Frame | null {
    return this._frame;
  }

  /**
   * Show a frame (null: no frame). Resolves when the pane is drawn.
   */
  async update(frame: Frame | null): Promise<void> {
    if (this._disposed) {
      return;
    }
    this._frame = frame;
    this.releaseLinks();
    if (frame) {
      await this.render(frame);
    } else {
      await this.renderNoFrame();
    }
  }

  /**
   * Forget the pane's line links; the view calls it when the report goes away.
   */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    for (const group of this._groups) {
      this.ctx.linker.clearGroup(group);
    }
    this._groups.clear();
  }

  /** Draw a frame (the previous drawing's links are already released). */
  protected abstract render(frame: Frame): void | Promise<void>;

  /** Draw the pane with no frame shown; by default the '<no frame>' placeholder. */
  protected renderNoFrame(): void | Promise<void> {
    this.showEmpty(NO_FRAME);
  }

  /** Draw the frame shown now again (after a toolbar choice changed what the pane shows). */
  protected redraw(): Promise<void> {
    return this.update(this._frame);
  }

  /** Whether `frame` is still the one shown (an asynchronous drawing stops when another frame came). */
  protected isShown(frame: Frame): boolean {
    return !this._disposed && this._frame === frame;
  }

  /**
   * Replace the content of `where` (the body unless told) with a placeholder text.
   */
  protected showEmpty(text: string, where: HTMLElement = this.body): HTMLElement {
    clear(where);
    const el = emptyState(text);
    where.appendChild(el);
    return el;
  }

  /**
   * Register a row drawn for the frame shown now under a line key; `part` names a part the pane redraws on
   * its own (`releaseLinks(part)`).
   */
  protected link(el: Element, key: string | null, part = 'frame'): void {
    if (part === REPORT_PART) {
      throw new Error(`link(): the part '${REPORT_PART}' is linkForReport()'s`);
    }
    this._register(el, key, part);
  }

  /**
   * Register a row of report-wide content (drawn once, in the constructor): kept across frame selections.
   */
  protected linkForReport(el: Element, key: string | null): void {
    this._register(el, key, REPORT_PART);
  }

  /**
   * Release the links of one part, or of every per-frame part (report-wide links stay).
   */
  protected releaseLinks(part?: string): void {
    for (const group of Array.from(this._groups)) {
      const groupPart = group.slice(this.name.length + 1);
      if (groupPart !== REPORT_PART && (part === undefined || groupPart === part)) {
        this.ctx.linker.clearGroup(group);
        this._groups.delete(group);
      }
    }
  }

  private _register(el: Element, key: string | null, part: string): void {
    if (this._disposed || !key) {
      return;
    }
    const group = `${this.name}:${part}`;
    this._groups.add(group);
    this.ctx.linker.register(group, el, key);
  }
}

/**
 * A segmented toggle: one button per choice, `jp-mod-selected` on the chosen one.
 */
export function toggle<T extends string>(
  choices: Array<[T, string]>,
  initial: T,
  onChange: (value: T) => void
): { element: HTMLElement; set: (value: T) => void } {
  const buttons = new Map<T, HTMLButtonElement>();
  const set = (value: T): void => {
    for (const [key, btn] of buttons) {
      btn.classList.toggle('jp-mod-selected', key === value);
      btn.setAttribute('aria-pressed', String(key === value));
    }
  };
  const element = h('span', { class: 'jp-DynamoExplorer-toggle' });
  for (const [value, label] of choices) {
    const btn = h('button', { text: label, data: { value } });
    btn.type = 'button';
    btn.addEventListener('click', () => {
      set(value);
      onChange(value);
    });
    buttons.set(value, btn);
    element.appendChild(btn);
  }
  set(initial);
  return { element, set };
}
