import { AppError, type Principal, type TemplateImportResult, type TemplateProblem } from '@postbus/contracts';
import { EMPTY_TEMPLATE, templateView } from './stored-template';
import { diffTemplates } from './template-diff';
import type { TemplatePorts } from './template.ports';
import { checkTemplate } from './template.rules';

/**
 * Replaces the account's template, or with `dryRun` only says what that would change. An invalid
 * template changes nothing: validation_error with every problem in `details.problems`. The
 * template covers every profile of the account, so a key limited to some profiles may not import one.
 */
export async function importTemplate(
  ports: TemplatePorts,
  principal: Principal,
  input: { template: unknown; dryRun?: boolean },
): Promise<TemplateImportResult> {
  if (principal.profileIds !== 'all') {
    throw new AppError(
      'profile_scope_denied',
      'The auto-reply template covers every profile of the account; import it with a key that may use all profiles.',
    );
  }
  const { problems, template } = checkTemplate(input.template, await ports.listProfiles(principal));
  if (!template) throw invalidTemplate(problems);
  const dryRun = input.dryRun ?? false;

  return ports.db.transaction(async (m) => {
    const current = await ports.templates.lock(m, principal.accountId);
    const changes = diffTemplates(current?.template ?? EMPTY_TEMPLATE, template);
    const changed = changes.length > 0;
    const revision = (current?.revision ?? 0) + (changed ? 1 : 0);
    let updatedAt = current?.updatedAt ?? null;
    if (changed && !dryRun) {
      updatedAt = ports.clock();
      await ports.templates.save(m, principal.accountId, template, revision, updatedAt);
    }
    return { dryRun, changed, revision, changes, template: templateView(template, revision, updatedAt) };
  });
}

function invalidTemplate(problems: TemplateProblem[]): AppError {
  const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  return new AppError(
    'validation_error',
    `The template has ${problems.length} problem${problems.length === 1 ? '' : 's'} and was not imported: ${list}.`,
    { problems },
  );
}
