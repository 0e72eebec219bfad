import { Template } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatTime } from '../ui/time-format';
import { RunTemplateDialog } from './RunTemplateDialog';
import { TemplateDialog } from './TemplateDialog';
import { deleteTemplate, listTemplates, queryPreview, templateMatches } from './templates-api';
import './templates.css';

const byName = (a: Template, b: Template) => a.Name.localeCompare(b.Name);
const READ_ONLY = 'Only its owner or an administrator may change or delete it.';

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete' | 'run'; template: Template };

/** Templates: queries with variables (%%NAME%%), to find, run, create, edit, share and delete. */
export function TemplatesPage() {
  const page = useKeptPage<Template, Editing>({ read: listTemplates, compare: byName, what: 'the templates', matches: templateMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const { shown, label, setLabel, editing, setEditing } = page;
  const saved = (verb: string) => (t: Template) => page.done(`${verb} “${t.Name}”.`);

  return (
    <KeptListPage
      page={page}
      id="templates"
      title="Templates"
      create={{ label: 'New template', onClick: () => setEditing({ kind: 'new' }) }}
      intro="Queries with variables. Write a variable into the query as %%NAME%%; running the template asks for its value. Dashboard tiles can run templates too: the dashboard asks for the values once for all its tiles."
      filter={{ what: 'the templates', every: 'templates', label: 'Search the templates', placeholder: 'name, label, query, variable…' }}
      labels
      loading="Loading the templates…"
      empty="There are no templates yet. Make one with “New template”, or “Save as template” on the search page."
      columns={['Name', 'Query', 'Variables', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Templates"
      noMatch="No template matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <TemplateDialog title="New template" onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && <TemplateDialog title={`Edit “${editing.template.Name}”`} template={editing.template} onClose={page.close} onSaved={saved('Updated')} />}
          {editing?.kind === 'run' && <RunTemplateDialog template={editing.template} onClose={page.close} />}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete template"
              name={editing.template.Name}
              consequence="Dashboard tiles that run it will no longer run."
              run={() => deleteTemplate(editing.template)}
            />
          )}
        </>
      }
    >
      {shown.map((t) => (
        <tr key={t.ThingUUID}>
          <OwnedNameCell name={t.Name || '(no name)'} description={t.Description} owner={page.otherOwner(t)} />
          <td className="query-cell" title={t.Contents.query}>
            {queryPreview(t.Contents.query)}
          </td>
          <td className="text-cell template-vars">
            {t.Contents.variables.map((v) => (
              <code key={v.name} title={[v.label, v.description].filter(Boolean).join(': ')}>
                {v.name}
              </code>
            ))}
          </td>
          <td className="text-cell">
            <LabelChips labels={t.Labels} what="templates" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(t.GIDs, t.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(t.Updated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={t.Name} why={!t.Can.Modify || !t.Can.Delete ? READ_ONLY : undefined}>
              <RowButton onClick={() => setEditing({ kind: 'run', template: t })} aria-label={`Run ${t.Name}`}>
                Run
              </RowButton>
              <RowButton unavailable={t.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'edit', template: t })} aria-label={`Edit ${t.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={t.Can.Delete ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'delete', template: t })} aria-label={`Delete ${t.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
