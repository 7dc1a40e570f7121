/**
 * The names in the bytecode panes' arguments that link somewhere: `__compiled_fn_*` to its FX graph (shown
 * without the uuid Dynamo appends) and `__resume_at_*` to the resume function's frame; a name whose target the
 * report lacks stays plain text. The links are keyboard links (Enter or Space).
 */
import type { IViewContext } from '../context';
import { h } from '../../dom';
import type { NameRef } from '../../schema';

/** A name of the bytecode linked to what it names: a compiled function's graph, a resume function's frame. */
export function refLink(ctx: IViewContext, ref: NameRef, text: string): HTMLElement {
  const link = refElement(ctx, ref, text);
  if (link.tagName === 'A') {
    link.addEventListener('keydown', event => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        link.click();
      }
    });
  }
  return link;
}

/** The link (or, when the report lacks its target, the plain name) of a name. */
function refElement(ctx: IViewContext, ref: NameRef, text: string): HTMLElement {
  const { index } = ctx;
  if (ref.kind === 'compiled_fn' && ref.graph_id !== null && index.graphs.has(ref.graph_id)) {
    const graphId = ref.graph_id;
    return h('a', {
      class: 'jp-DynamoExplorer-ref',
      text: `${shortName(text || ref.name)} → graph ${graphId}`,
      title: `${ref.name}: show FX graph ${graphId}`,
      data: { refKind: 'compiled_fn', graphId: String(graphId) },
      attrs: { role: 'link', tabindex: '0' },
      onclick: () => void ctx.showGraph(graphId)
    });
  }
  if (ref.kind === 'resume' && ref.compile_id !== null && index.frames.has(ref.compile_id)) {
    const compileId = ref.compile_id;
    return h('a', {
      class: 'jp-DynamoExplorer-ref',
      text: `${shortName(text || ref.name)} → [${compileId}]`,
      title: `${ref.name}: show frame [${compileId}]`,
      data: { refKind: 'resume', compileId },
      attrs: { role: 'link', tabindex: '0' },
      onclick: () => void ctx.selectFrame(compileId)
    });
  }
  return h('span', {
    class: 'jp-DynamoExplorer-refName',
    text: text || ref.name,
    title: `${ref.kind}: ${ref.name}`,
    data: { refKind: ref.kind }
  });
}

/** Drop the uuid Dynamo appends to compiled-function globals: '__compiled_fn_1_e979fff3_..._4d74' -> '__compiled_fn_1'. */
export function shortName(name: string): string {
  return name.replace(/_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}/g, '');
}
