/** The underscore-key workflow list (workflows.underscore.primaryUrl, backupUrl): see workflow-list.ts. */
import { listEndpoint } from './workflow-list.ts';

export const prerender = true;

export const GET = listEndpoint('underscore');
