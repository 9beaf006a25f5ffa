import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import type { ActivityRepository } from '../activity/activity.repository';
import { listActivity } from '../activity/list-activity.use-case';
import { exportTemplate } from '../templates/export-template.use-case';
import { importTemplate } from '../templates/import-template.use-case';
import type { TemplatePorts } from '../templates/template.ports';

/** One line per command: the RPC server has validated the input against its contract. */
export function registerRpc(rpc: RpcServer, ports: TemplatePorts & { activity: ActivityRepository }): void {
  rpc.handle(Rpc.automationExportTemplate, (_input, { principal }) => exportTemplate(ports, principal));
  rpc.handle(Rpc.automationImportTemplate, (input, { principal }) => importTemplate(ports, principal, input));
  rpc.handle(Rpc.automationListActivity, (query, { principal }) => listActivity(ports, principal, query));
}
