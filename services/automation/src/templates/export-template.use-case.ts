import type { AutomationTemplate, Principal } from '@postbus/contracts';
import { EMPTY_TEMPLATE, templateView } from './stored-template';
import type { TemplatePorts } from './template.ports';

/** The account's template with its defaults filled in; an account that never imported one has an empty template, revision 0. */
export async function exportTemplate(
  ports: Pick<TemplatePorts, 'templates'>,
  principal: Principal,
): Promise<AutomationTemplate> {
  const record = await ports.templates.find(principal.accountId);
  return record
    ? templateView(record.template, record.revision, record.updatedAt)
    : templateView(EMPTY_TEMPLATE, 0, null);
}
