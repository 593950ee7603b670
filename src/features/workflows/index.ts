import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';

/**
 * Issue 29, automation workflows, admins only (the server's writes are admin-only, WORKFLOW_7003):
 * /workflows (the list), /workflows/new and /workflows/$workflowId (the editor: form and canvas,
 * dry run), /workflows/$workflowId/log (the execution log). Online only: nothing is mirrored.
 */
export function workflowsRoutes<P extends AnyRoute>(parent: P) {
  const list = lazyPage(() => import('./workflows-page.tsx'), 'WorkflowsPage', { title: 'Workflows', className: 'page' });
  const create = lazyPage(() => import('./workflow-editor-page.tsx'), 'NewWorkflowPage', { title: 'New workflow', className: 'page' });
  const edit = lazyPage(() => import('./workflow-editor-page.tsx'), 'EditWorkflowPage', { title: 'Workflow', className: 'page' });
  const log = lazyPage(() => import('./executions-page.tsx'), 'ExecutionsPage', { title: 'Execution log', className: 'page' });
  return [
    pageRoute(parent, '/workflows', list, { allowed: isAdmin }),
    pageRoute(parent, '/workflows/new', create, { allowed: isAdmin }),
    pageRoute(parent, '/workflows/$workflowId', edit, { allowed: isAdmin }),
    pageRoute(parent, '/workflows/$workflowId/log', log, { allowed: isAdmin }),
  ] as const;
}

export const workflowsNav: readonly NavItem[] = [{ to: '/workflows', label: 'Workflows', visible: isAdmin }];
