import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Canvas, CanvasNode } from '../../../schema/workflow-canvas.ts';
import { ACTIONS_FOR, type WorkflowTrigger } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { toastError } from '../../lib/toast-store.ts';
import {
  NODE_H, NODE_W, NUDGE, addNode, canvasSize, connect, connectRefusal, moveNode, nudgeNode, removeEdge, removeNode, replaceNode,
} from './canvas-edit.ts';
import { NodeDialog } from './node-dialog.tsx';
import { nodeTitle } from './node-words.ts';
import type { PickerOptions } from './rule-editor.tsx';
import type { WorkflowNames } from './workflow-text.ts';

export interface CanvasViewProps {
  canvas: Canvas;
  /** Problems by `nodes.<id>` (and `nodes`/`edges` for the whole): marked on the steps. */
  problems: Record<string, string>;
  currency: string;
  options: PickerOptions;
  names: WorkflowNames;
  onChange(next: Canvas): void;
}

type Drag = { kind: 'move'; id: string; dx: number; dy: number; moved: boolean } | { kind: 'connect'; from: string; x: number; y: number };

/** An arrow's path: right side to left side, or (condition to condition, "otherwise") bottom to top. */
function edgePath(a: CanvasNode, b: CanvasNode): { d: string; mid: { x: number; y: number } } {
  const down = a.type === 'rule' && b.type === 'rule';
  const [x1, y1] = down ? [a.position.x + NODE_W / 2, a.position.y + NODE_H] : [a.position.x + NODE_W, a.position.y + NODE_H / 2];
  const [x2, y2] = down ? [b.position.x + NODE_W / 2, b.position.y] : [b.position.x, b.position.y + NODE_H / 2];
  const d = down
    ? `M${x1},${y1} C${x1},${y1 + 50} ${x2},${y2 - 50} ${x2},${y2}`
    : `M${x1},${y1} C${x1 + 60},${y1} ${x2 - 60},${y2} ${x2},${y2}`;
  return { d, mid: { x: (x1 + x2) / 2, y: (y1 + y2) / 2 } };
}

/**
 * The blank canvas (issue 29): the workflow's steps as cards on a scrollable surface with SVG
 * arrows — no graph library (a few hundred lines do what this needs, and the page stays light).
 * Pointer: drag a step to move it, drag from its handle (●) onto another step to connect, click
 * an arrow to select it and remove it. Keyboard: Tab to a step, arrows move it (Shift: further),
 * Enter opens its settings (which also connect and disconnect), Delete removes it. Problems from
 * `canvasProblems` are marked on the steps before saving. Touch: steps drag with a finger; the
 * surface scrolls around them.
 */
export function CanvasView({ canvas, problems, currency, options, names, onChange }: CanvasViewProps) {
  const surface = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [edge, setEdge] = useState<{ from: string; to: string } | null>(null);
  const size = canvasSize(canvas);
  const byId = new Map(canvas.nodes.map((n) => [n.id, n]));
  const trigger = (canvas.nodes.find((n) => n.type === 'trigger') as Extract<CanvasNode, { type: 'trigger' }> | undefined)?.trigger ?? 'claim.submitted';

  const point = (e: PointerEvent) => {
    const r = surface.current!.getBoundingClientRect();
    return { x: e.clientX - r.left + size.minX, y: e.clientY - r.top + size.minY };
  };
  const focusNode = (id: string) => requestAnimationFrame(() => surface.current?.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"]`)?.focus());

  const startMove = (e: PointerEvent<HTMLDivElement>, n: CanvasNode) => {
    if ((e.target as HTMLElement).closest('.wf-handle') || e.button !== 0) return;
    const p = point(e);
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ kind: 'move', id: n.id, dx: p.x - n.position.x, dy: p.y - n.position.y, moved: false });
  };
  const startConnect = (e: PointerEvent<HTMLButtonElement>, n: CanvasNode) => {
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ kind: 'connect', from: n.id, ...point(e) });
  };
  const onMove = (e: PointerEvent) => {
    if (!drag) return;
    const p = point(e);
    if (drag.kind === 'move') {
      onChange(moveNode(canvas, drag.id, { x: p.x - drag.dx, y: p.y - drag.dy }));
      if (!drag.moved) setDrag({ ...drag, moved: true });
    } else setDrag({ ...drag, ...p });
  };
  const onUp = (e: PointerEvent) => {
    if (drag?.kind === 'connect') {
      const under = document.elementsFromPoint(e.clientX, e.clientY).map((el) => (el as HTMLElement).closest?.('[data-node-id]')).find(Boolean) as HTMLElement | undefined;
      const to = under?.dataset.nodeId;
      if (to && to !== drag.from) {
        const why = connectRefusal(canvas, drag.from, to);
        if (why) toastError(why);
        else onChange(connect(canvas, drag.from, to));
      }
    }
    setDrag(null);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>, n: CanvasNode) => {
    const step = e.shiftKey ? NUDGE * 4 : NUDGE;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      onChange(nudgeNode(canvas, n.id, m[0], m[1]));
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setOpen(n.id);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && n.type !== 'trigger') {
      e.preventDefault();
      onChange(removeNode(canvas, n.id));
      focusNode('trigger');
    }
  };

  const add = (type: 'rule' | 'action') => {
    const { canvas: next, id } = type === 'rule'
      ? addNode(canvas, { type: 'rule', conditions: [] })
      : addNode(canvas, { type: 'action', action: firstAction(trigger) });
    onChange(next);
    setOpen(id);
  };

  const whole = [problems.nodes, problems.edges].filter(Boolean);
  const openNode = open ? byId.get(open) : undefined;
  const from = drag?.kind === 'connect' ? byId.get(drag.from) : undefined;
  return (
    <div className="wf-canvas">
      <div className="wf-canvas-bar">
        <Button size="sm" onClick={() => add('rule')}>Add condition step</Button>
        <Button size="sm" onClick={() => add('action')}>Add action</Button>
        <p className="muted wf-note" id="wf-canvas-help">
          Drag a step to move it; drag from its ● handle onto another step to connect them. Keyboard: Tab to a step, arrow keys move it, Enter opens its settings, Delete removes it.
        </p>
      </div>
      {whole.length > 0 && <ul className="field-error wf-canvas-problems">{whole.map((w) => <li key={w}>{w}</li>)}</ul>}
      <div className="wf-canvas-scroll" tabIndex={-1}>
        <div ref={surface} className="wf-surface" style={{ width: size.width, height: size.height }} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={() => setDrag(null)}
          onPointerDown={(e) => e.target === e.currentTarget && setEdge(null)}>
          <CanvasEdges canvas={canvas} byId={byId} size={size} selected={edge} onSelect={setEdge}
            draft={from && drag?.kind === 'connect' ? { from, x: drag.x, y: drag.y } : null} />
          {edge && byId.get(edge.from) && byId.get(edge.to) && (() => {
            const { mid } = edgePath(byId.get(edge.from)!, byId.get(edge.to)!);
            return (
              <div className="wf-edge-tools" style={{ left: mid.x - size.minX, top: mid.y - size.minY }}>
                <Button size="sm" variant="danger" onClick={() => { onChange(removeEdge(canvas, edge.from, edge.to)); setEdge(null); }}>Remove arrow</Button>
              </div>
            );
          })()}
          {canvas.nodes.map((n) => (
            <NodeCard key={n.id} node={n} names={names} problem={problems[`nodes.${n.id}`]} offset={size}
              onPointerDown={(e) => startMove(e, n)} onKeyDown={(e) => onKey(e, n)} onOpen={() => setOpen(n.id)} onConnectStart={(e) => startConnect(e, n)} />
          ))}
        </div>
      </div>
      {openNode && (
        <NodeDialog canvas={canvas} node={openNode} trigger={trigger} currency={currency} options={options} names={names}
          onSave={(next) => { onChange(replaceNode(canvas, openNode.id, next)); setOpen(null); focusNode(openNode.id); }}
          onConnect={(to) => onChange(connect(canvas, openNode.id, to))}
          onDisconnect={(to) => onChange(removeEdge(canvas, openNode.id, to))}
          onDelete={() => { onChange(removeNode(canvas, openNode.id)); setOpen(null); focusNode('trigger'); }}
          onClose={() => { setOpen(null); focusNode(openNode.id); }} />
      )}
    </div>
  );
}

function firstAction(trigger: WorkflowTrigger): Extract<CanvasNode, { type: 'action' }>['action'] {
  const kind = ACTIONS_FOR[trigger][0]!;
  if (kind === 'require_receipt' || kind === 'lock_card') return { kind };
  if (kind === 'notify') return { kind, to: { kind: 'owner' }, message: 'Please take a look.' };
  if (kind === 'comment') return { kind, text: 'Checked by a workflow.' };
  if (kind === 'add_approval_step') return { kind, approvers: { kind: 'manager' } };
  if (kind === 'auto_approve') return { kind, under: { amount: 2500, currency: 'USD' } };
  return { kind: 'notify', to: { kind: 'owner' }, message: 'Please take a look.' };
}

type Size = ReturnType<typeof canvasSize>;

/** The arrows, under the steps (decorative for assistive technology: the steps' settings list them). */
function CanvasEdges({ canvas, byId, size, selected, onSelect, draft }: {
  canvas: Canvas; byId: Map<string, CanvasNode>; size: Size; selected: { from: string; to: string } | null; onSelect(e: { from: string; to: string }): void;
  draft: { from: CanvasNode; x: number; y: number } | null;
}) {
  return (
          <svg className="wf-edges" width={size.width} height={size.height} viewBox={`${size.minX} ${size.minY} ${size.width} ${size.height}`} aria-hidden="true">
            <defs>
              <marker id="wf-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="wf-arrow-head" />
              </marker>
            </defs>
            {canvas.edges.map((e) => {
              const a = byId.get(e.from);
              const b = byId.get(e.to);
              if (!a || !b) return null;
              const { d } = edgePath(a, b);
              const on = selected?.from === e.from && selected.to === e.to;
              return (
                <g key={`${e.from}>${e.to}`} className={on ? 'wf-edge wf-edge-selected' : 'wf-edge'} onPointerDown={(ev) => { ev.stopPropagation(); onSelect(e); }}>
                  <path d={d} className="wf-edge-hit" />
                  <path d={d} className="wf-edge-line" markerEnd="url(#wf-arrow)" />
                </g>
              );
            })}
            {draft && (
              <path className="wf-edge-line wf-edge-draft" d={`M${draft.from.position.x + NODE_W},${draft.from.position.y + NODE_H / 2} L${draft.x},${draft.y}`} markerEnd="url(#wf-arrow)" />
            )}
          </svg>
  );
}

/** One step on the surface: focusable, named by what it says (and its problem), with its handle to connect from. */
function NodeCard({ node: n, names, problem, offset, onPointerDown, onKeyDown, onOpen, onConnectStart }: {
  node: CanvasNode; names: WorkflowNames; problem: string | undefined; offset: Size;
  onPointerDown(e: PointerEvent<HTMLDivElement>): void; onKeyDown(e: KeyboardEvent<HTMLDivElement>): void; onOpen(): void;
  onConnectStart(e: PointerEvent<HTMLButtonElement>): void;
}) {
  const t = nodeTitle(n, names);
  return (
    <div data-node-id={n.id} className={`wf-node wf-node-${n.type}${problem ? ' wf-node-problem' : ''}`}
      style={{ left: n.position.x - offset.minX, top: n.position.y - offset.minY, width: NODE_W, minHeight: NODE_H }}
      tabIndex={0} role="group" aria-label={`${t.heading}: ${t.description}${problem ? `. Problem: ${problem}` : ''}`} aria-describedby="wf-canvas-help"
      onPointerDown={onPointerDown} onKeyDown={onKeyDown} onDoubleClick={onOpen}>
      <span className="wf-node-kind">{n.type === 'trigger' ? 'When' : n.type === 'rule' ? 'If' : 'Then'}</span>
      <span className="wf-node-text">{t.description}</span>
      {problem && <span className="wf-node-problem-text">{problem}</span>}
      <button type="button" className="wf-node-open" tabIndex={-1} aria-hidden="true" onClick={onOpen}>Edit</button>
      <button type="button" className="wf-handle" tabIndex={-1} aria-hidden="true" title="Drag onto another step to connect" onPointerDown={onConnectStart} />
    </div>
  );
}
