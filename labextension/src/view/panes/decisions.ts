/**
 * Inline / skip decisions pane (issue 13 item 1): for the frame shown, every call Dynamo met while tracing, as a
 * collapsible call tree (decisionsModel.ts): the callee, Dynamo's decision as a badge (inline, skip, disabled,
 * allow_in_graph, ...), the rule that decided it in Dynamo's words, and the line of the call. A call in the frame's
 * own code jumps to its source line (and links with the other panes' rows of that line); a call that broke the
 * graph opens its break in the graph-breaks pane. Torch ops and builtins are hidden until 'All calls' is chosen.
 */
import { breakKey } from '../../model/breakList';
import { openMark } from '../openMark';
import type { IViewContext } from '../context';
import { button, clear, h, plural } from '../../dom';
import {
  buildTree,
  calleeLabel,
  DECISION_TITLES,
  decisionCounts,
  inFrameSource,
  readDecisions,
  startsOpen,
  type IDecisionNode
} from '../../model/decisionsModel';
import type { Frame } from '../../schema';
import { emptyState, isView, Pane, toggle } from './pane';

/** Which calls the tree shows. */
type Shown = 'decisions' | 'all';

/**
 * The decisions pane.
 */
export class DecisionsPane extends Pane {
  private _shown: Shown = 'decisions';
  /** Open state of the nodes the user toggled, by decision index (the rest start as `startsOpen` says). */
  private readonly _open = new Map<number, boolean>();

  constructor(ctx: IViewContext) {
    super(ctx, 'decisions');
    const choice = toggle<Shown>(
      [
        ['decisions', 'Decisions'],
        ['all', 'All calls']
      ],
      this._shown,
      value => {
        this._shown = value;
        void this.redraw();
      }
    );
    choice.element.title = 'Decisions: hide torch ops and builtins that decided nothing; All calls: show every call';
    this.toolbar.appendChild(choice.element);
  }

  /** Which calls are shown: the decisions only (default) or every call. */
  get shown(): Shown {
    return this._shown;
  }

  /** Show the decisions only or every call (what the toolbar toggle does). */
  async show(shown: Shown): Promise<void> {
    this._shown = shown;
    await this.redraw();
  }

  /** Open or close the node of a decision (by its index in the frame's `decisions`). */
  async setOpen(index: number, open: boolean): Promise<void> {
    this._open.set(index, open);
    await this.redraw();
  }

  /**
   * Open the graph break a call caused in the graph-breaks pane (its frame selected, its line shown, its card
   * selected). Resolves false when the view does not hold it.
   */
  async openBreak(frame: Frame, breakIndex: number): Promise<boolean> {
    const gb = frame.graph_breaks[breakIndex];
    if (!gb || !isView(this.ctx)) {
      return false;
    }
    return openMark(this.ctx, { kind: 'break', key: breakKey(gb) });
  }

  /** Draw the frame's call tree. */
  protected render(frame: Frame): void {
    clear(this.body);
    const decisions = readDecisions(frame);
    if (decisions.length === 0) {
      this.body.appendChild(
        emptyState(
          !('decisions' in frame)
            ? 'No decisions: this report was written before decisions were recorded (schema minor 7).'
            : this.ctx.report.options.decisions !== true
              ? 'Not recorded: run the cell with %%dynamo --decisions to see what Dynamo inlined, skipped or put in the graph, call by call.'
              : 'No calls: Dynamo met no function call while tracing this frame.'
        )
      );
      return;
    }
    const broke = decisions.filter(d => d.outcome === 'graph_break' && d.parent === null).length;
    const summary = h(
      'div',
      { class: 'jp-DynamoExplorer-decisionSummary' },
      h('span', { text: `${plural(decisions.length, 'call')} met while tracing [${frame.compile_id}]` }),
      ...decisionCounts(decisions).map(([kind, n]) =>
        h('span', {
          class: `jp-DynamoExplorer-decision jp-DynamoExplorer-decision-${kind}`,
          text: `${kind} ${n}`,
          title: DECISION_TITLES[kind]
        })
      ),
      broke > 0
        ? h('span', { class: 'jp-DynamoExplorer-flag', text: `⚠ ${plural(broke, 'call')} broke the graph` })
        : null
    );
    this.body.appendChild(summary);
    const roots = buildTree(decisions, this._shown === 'all');
    if (roots.length === 0) {
      this.body.appendChild(emptyState('Only torch ops and builtins: choose All calls to see them.'));
      return;
    }
    const tree = h('ul', { class: 'jp-DynamoExplorer-decisionTree', attrs: { role: 'tree' } });
    for (const node of roots) {
      tree.appendChild(this._node(frame, node, 1));
    }
    this.body.appendChild(tree);
  }

  private _node(frame: Frame, node: IDecisionNode, level: number): HTMLElement {
    const { decision: d } = node;
    const { index } = this.ctx;
    const open = this._open.get(node.index) ?? startsOpen(node, frame, index);
    const hasChildren = node.children.length > 0;
    const row = h(
      'div',
      { class: 'jp-DynamoExplorer-decisionRow', data: { decision: d.decision, outcome: d.outcome } },
      hasChildren
        ? button(open ? '▾' : '▸', () => void this.setOpen(node.index, !open), {
            class: 'jp-DynamoExplorer-treeToggle',
            title: open
              ? 'Hide the calls made inside it'
              : `Show the ${plural(node.children.length, 'call')} made inside it`,
            attrs: { 'aria-expanded': String(open) }
          })
        : h('span', { class: 'jp-DynamoExplorer-treeToggle' }),
      h('code', {
        class: 'jp-DynamoExplorer-decisionCallee',
        text: calleeLabel(d, frame, index),
        title: d.filename ? `defined at ${index.place(d.filename, d.line)}` : 'a C function'
      }),
      h('span', {
        class: `jp-DynamoExplorer-decision jp-DynamoExplorer-decision-${d.decision}`,
        text: d.decision,
        title: DECISION_TITLES[d.decision]
      }),
      h('span', {
        class: 'jp-DynamoExplorer-decisionRule',
        text: index.labelPaths(d.rule),
        title: `${d.rule} [${d.variable}]`
      }),
      this._where(frame, d.call_filename, d.call_line),
      d.outcome === 'graph_break' && d.graph_break !== null
        ? button('graph break', () => void this.openBreak(frame, d.graph_break as number), {
            class: 'jp-DynamoExplorer-link jp-DynamoExplorer-decisionBreak',
            title: `${d.error ?? 'graph break'}: open it in the graph-breaks pane`,
            data: { break: String(d.graph_break) }
          })
        : d.outcome === 'raised'
          ? h('span', { class: 'jp-DynamoExplorer-muted', text: `raised ${d.error ?? ''}`.trim() })
          : null
    );
    this.link(row, index.lineKey(d.call_filename, d.call_line));
    const item = h(
      'li',
      {
        class: 'jp-DynamoExplorer-decisionNode',
        data: { index: String(node.index) },
        attrs: {
          role: 'treeitem',
          'aria-level': String(level),
          ...(hasChildren ? { 'aria-expanded': String(open) } : {})
        }
      },
      row
    );
    if (hasChildren && open) {
      const group = h('ul', { attrs: { role: 'group' } });
      for (const child of node.children) {
        group.appendChild(this._node(frame, child, level + 1));
      }
      item.appendChild(group);
    }
    return item;
  }

  /** The line of a call: a button that shows it in the source pane when it is the frame's own code. */
  private _where(frame: Frame, filename: string, line: number | null): HTMLElement {
    const text = this.ctx.index.place(filename, line);
    if (line !== null && inFrameSource(filename, line, frame, this.ctx.index)) {
      return button(text, () => void this.ctx.jumpToLine(frame, line), {
        class: 'jp-DynamoExplorer-link',
        title: 'Show this line in the source pane',
        data: { jump: String(line) }
      });
    }
    return h('span', { class: 'jp-DynamoExplorer-muted', text });
  }
}
