import { Autoextractor } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatTime } from '../ui/time-format';
import { AutoextractorDialog } from './AutoextractorDialog';
import { autoextractorMatches, deleteAutoextractor, listAutoextractors, preview } from './autoextractors-api';
import './autoextractors.css';

const byTag = (a: Autoextractor, b: Autoextractor) => a.Tag.localeCompare(b.Tag) || a.Name.localeCompare(b.Name);
const READ_ONLY = 'Only its owner or an administrator may change or delete it.';
/** How a definition is named in buttons and titles: its name, else its tags. */
const called = (a: Autoextractor) => a.Name || a.Tags.join(', ');

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete'; ax: Autoextractor };

/** Extractors: how `ax` extracts the fields of each tag, to find, create, try, edit, share and delete. */
export function AutoextractorsPage() {
  const page = useKeptPage<Autoextractor, Editing>({ read: listAutoextractors, compare: byTag, what: 'the extractors', matches: autoextractorMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const { shown, label, setLabel, editing, setEditing } = page;
  const saved = (verb: string) => (name: string) => page.done(`${verb} ${name}.`);

  return (
    <KeptListPage
      page={page}
      id="extractors"
      title="Extractors"
      create={{ label: 'New extractor', onClick: () => setEditing({ kind: 'new' }) }}
      intro="How to read the entries of a tag: a module (csv, fields, regex, json, kv…) and its parameters. In a query, ax extracts the fields of each entry through the extractor of its tag: tag=apache ax status==500 url. One extractor per tag per owner."
      filter={{ what: 'the extractors', every: 'extractors', label: 'Search the extractors', placeholder: 'name, tag, module, label…' }}
      labels
      loading="Loading the extractors…"
      empty="There are no extractors yet. Make one with “New extractor”."
      columns={['Name', 'Tags', 'Module', 'Parameters', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Extractors"
      noMatch="No extractor matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <AutoextractorDialog title="New extractor" onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && <AutoextractorDialog title={`Edit ${called(editing.ax)}`} ax={editing.ax} onClose={page.close} onSaved={saved('Updated')} />}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete extractor"
              name={called(editing.ax)}
              consequence={`Queries that use ax on ${editing.ax.Tags.join(', ')} will no longer extract through it.`}
              run={() => deleteAutoextractor(editing.ax)}
            />
          )}
        </>
      }
    >
      {shown.map((a) => (
        <tr key={a.UUID}>
          <OwnedNameCell name={<span className="ax-name">{a.Name || <span className="muted">(no name)</span>}</span>} description={a.Desc} owner={page.otherOwner(a)} />
          <td className="text-cell ax-tags">
            {a.Tags.map((t) => (
              <code key={t}>{t}</code>
            ))}
          </td>
          <td className="nowrap">{a.Module}</td>
          <td className="query-cell" title={a.Args ? `${a.Args} ${a.Params}` : a.Params}>
            {preview(a.Args ? `${a.Args} ${a.Params}` : a.Params)}
          </td>
          <td className="text-cell">
            <LabelChips labels={a.Labels} what="extractors" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(a.GIDs, a.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(a.LastUpdated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={called(a)} why={!a.Can.Modify || !a.Can.Delete ? READ_ONLY : undefined}>
              <RowButton unavailable={a.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'edit', ax: a })} aria-label={`Edit ${called(a)}`}>
                Edit
              </RowButton>
              <RowButton unavailable={a.Can.Delete ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'delete', ax: a })} aria-label={`Delete ${called(a)}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
