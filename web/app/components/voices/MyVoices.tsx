import { Link, useSearchParams } from "@remix-run/react";
import { FormActions } from "../FormActions.js";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { CreateCollectionBody } from "../../../../functions/platform/contract/voices.js";
import { isVisible, type IconName } from "../../lib/nav.js";
import { useUrlState } from "../../lib/useUrlState.js";
import { navContext, useShell } from "../../lib/shell.js";
import { apiCallError, v1Fetch, v1Json } from "../tts/client.js";
import { voiceBadges, voiceDisplayName } from "../tts/voices.js";
import { Dialog } from "../Dialog.js";
import { Field } from "../Field.js";
import { Icon } from "../Icon.js";
import { SelectField } from "./SelectField.js";
import { Page } from "../Page.js";
import { EmptyState } from "../ui/EmptyState.js";
import { SkeletonRows } from "../ui/Skeleton.js";
import { useToast } from "../ui/Toast.js";
import { cloneActionParams, cloneActions } from "./cloneLinks.js";
import { AddNewVoiceButton, AddNewVoiceDialog, VOICE_LIBRARY_PATH } from "./AddNewVoiceDialog.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { LIBRARY_SEARCH_DEBOUNCE_MS } from "./LibraryFilters.js";
import { categoryLabel, MY_VOICE_FILTER_LABELS, MY_VOICE_FILTERS, MY_VOICE_SORT_LABELS, MY_VOICE_SORTS, parseMyVoicesQuery, writeMyVoicesQuery, type MyVoicesQuery } from "./myVoices.js";
import { MY_VOICES_DESCRIPTION, VOICES_TABS, VOICES_TITLE } from "./tabs.js";
import { useMyVoices } from "./useMyVoices.js";
import { voiceUsability } from "./usability.js";
import { VoiceDetail } from "./VoiceDetail.js";
import { CollectionsWire, CollectionWire, type Collection, type VoiceSlots } from "./wire.js";

/** Icons a collection can wear (the API stores any short name; the page offers these). */
export const COLLECTION_ICONS: Array<{ value: IconName; label: string }> = [
  { value: "voices", label: "Voices" },
  { value: "book", label: "Books" },
  { value: "agents", label: "Conversations" },
  { value: "studio", label: "Studio" },
  { value: "news", label: "News" },
  { value: "effects", label: "Effects" },
];
const iconOf = (icon: string): IconName => COLLECTION_ICONS.find((i) => i.value === icon)?.value ?? "voices";

type CollectionModal = { kind: "create" } | { kind: "edit"; collection: Collection } | { kind: "delete"; collection: Collection } | null;

function CollectionDialog({ collection, onClose, onSaved }: { collection: Collection | null; onClose: () => void; onSaved: (c: Collection) => void }) {
  const [title, setTitle] = useState(collection?.title ?? "");
  const [icon, setIcon] = useState<string>(collection?.icon ?? "voices");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = CreateCollectionBody.safeParse({ title, icon });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Title is required");
    setBusy(true);
    setError(null);
    try {
      const saved = await v1Json(collection ? `/v1/voices/collections/${encodeURIComponent(collection.collection_id)}` : "/v1/voices/collections", CollectionWire, {
        method: collection ? "PATCH" : "POST",
        json: parsed.data,
      });
      onSaved(saved);
    } catch (err) {
      setError(err instanceof Error ? err.message : "The collection could not be saved.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog title={collection ? "Edit collection" : "New collection"} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field name="title" label="Title" value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} error={error ?? undefined} required />
        <SelectField label="Icon" value={icon} onChange={(e) => setIcon(e.target.value)}>
            {COLLECTION_ICONS.map((i) => (
              <option key={i.value} value={i.value}>
                {i.label}
              </option>
            ))}
          </SelectField>
        <FormActions error={null} onCancel={onClose} busy={busy} submit={collection ? "Save" : "Create collection"} />
      </form>
    </Dialog>
  );
}

/**
 * My Voices (issue 9 §4): the workspace's voices with search (debounced 300 ms), a category
 * filter, sort and collections, 100 a page; a voice opens in a detail panel (?voiceId, pushed
 * to history) with its samples, settings, labels, edit, delete and sharing.
 */
export function MyVoices({ slots, collections: initialCollections }: { slots: VoiceSlots | null; collections: Collection[] }) {
  const [params, setParams] = useSearchParams();
  const shell = useShell();
  const toast = useToast();
  // The query shown is the one last chosen; the URL follows (useUrlState), so a category and then a sort
  // chosen in quick succession both count.
  const [query, setQuery] = useUrlState(parseMyVoicesQuery, writeMyVoicesQuery);
  const list = useMyVoices(query);
  const openId = params.get("voiceId");
  const [search, setSearch] = useState(query.search);
  const [collections, setCollections] = useState(initialCollections);
  const [modal, setModal] = useState<CollectionModal>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(query);
  latest.current = query;

  useEffect(() => setSearch(query.search), [query.search]);
  useEffect(() => {
    if (search.trim() === latest.current.search.trim()) return;
    const t = setTimeout(() => setQuery((q) => ({ ...q, search })), LIBRARY_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search, setQuery]);

  const { loadMore, hasMore, loading } = list;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: "400px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [loadMore, hasMore, loading]);

  const openVoice = (id: string | null) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (id) p.set("voiceId", id);
        else p.delete("voiceId");
        return p;
      },
      { preventScrollReset: true },
    );

  async function reloadCollections() {
    const r = await v1Json("/v1/voices/collections", CollectionsWire).catch(() => null);
    if (r) setCollections(r.collections);
  }

  const current = collections.find((c) => c.collection_id === query.collectionId) ?? null;
  const tabs = shell ? VOICES_TABS.filter((t) => isVisible(t.when, navContext(shell))) : VOICES_TABS;
  const narrowed = query.search.trim() !== "" || query.filter !== "all" || query.collectionId !== null;

  return (
    <Page title={VOICES_TITLE} description={MY_VOICES_DESCRIPTION} tabs={tabs} actions={<AddNewVoiceButton />} requiredPermission="voice_lab">
      <div className="my-voices" data-detail={openId ? "open" : undefined}>
        <div className="my-voices-main">
          <section className="library-filters" aria-label="Search and filters">
            <div className="library-filter-bar">
              <label className="library-search">
                <Icon name="search" size={16} />
                <input type="search" placeholder="Search my voices…" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} aria-label="Search my voices" />
              </label>
              <SelectField label="Category" value={query.filter} onChange={(e) => setQuery((q) => ({ ...q, filter: e.target.value as MyVoicesQuery["filter"] }))}>
                  {MY_VOICE_FILTERS.map((f) => (
                    <option key={f} value={f}>
                      {MY_VOICE_FILTER_LABELS[f]}
                    </option>
                  ))}
                </SelectField>
              <SelectField label="Sort" value={query.sort} onChange={(e) => setQuery((q) => ({ ...q, sort: e.target.value as MyVoicesQuery["sort"] }))}>
                  {MY_VOICE_SORTS.map((s) => (
                    <option key={s} value={s}>
                      {MY_VOICE_SORT_LABELS[s]}
                    </option>
                  ))}
                </SelectField>
              <SelectField label="Collection" value={query.collectionId ?? ""} onChange={(e) => setQuery((q) => ({ ...q, collectionId: e.target.value || null }))}>
                  <option value="">All collections</option>
                  {collections.map((c) => (
                    <option key={c.collection_id} value={c.collection_id}>
                      {c.title}
                    </option>
                  ))}
                </SelectField>
              <button type="button" className="button button-small" onClick={() => setModal({ kind: "create" })}>
                <Icon name="plus" size={16} />
                New collection
              </button>
              {current && (
                <>
                  <button type="button" className="button button-small" onClick={() => setModal({ kind: "edit", collection: current })}>
                    Edit collection
                  </button>
                  <button type="button" className="button button-small button-danger-outline" onClick={() => setModal({ kind: "delete", collection: current })}>
                    Delete collection
                  </button>
                </>
              )}
            </div>
          </section>

          {current && (
            <p className="my-voices-collection muted">
              <Icon name={iconOf(current.icon)} size={16} /> Showing the collection {current.title}
            </p>
          )}
          {list.error && (
            <p className="form-error" role="alert">
              {list.error}
            </p>
          )}
          <section aria-label="My voices" aria-busy={list.loading}>
            {list.voices.length > 0 && (
              <ul className="my-voice-list">
                {list.voices.map((v) => {
                  const usability = voiceUsability(v);
                  const name = voiceDisplayName(v.name);
                  return (
                    <li key={v.voice_id} className="my-voice-row" data-testid="my-voice" data-selected={openId === v.voice_id || undefined}>
                      <button type="button" className="my-voice-open" onClick={() => openVoice(v.voice_id)} aria-current={openId === v.voice_id || undefined}>
                        <span className="visually-hidden">Open </span>
                        <span className="voice-avatar" aria-hidden="true">
                          {name.slice(0, 1).toUpperCase()}
                        </span>
                        <span className="my-voice-text">
                          <span className="my-voice-name">{name}</span>
                          <span className="voice-badges">
                            <span className="badge badge-accent">{categoryLabel(v.category)}</span>
                            {voiceBadges(v.labels).map((b) => (
                              <span key={b} className="badge">
                                {b}
                              </span>
                            ))}
                          </span>
                          {!usability.usable && <span className="voice-option-why">{usability.reason}</span>}
                        </span>
                      </button>
                      {["owner", "admin", "editor"].includes(v.permission_on_resource ?? "") &&
                        cloneActions(v).map((a) => (
                          <Link key={a} className="button button-small" to={`?${cloneActionParams(params, v, a).toString()}`} preventScrollReset aria-label={`${a === "edit" ? "Edit" : "Verify"} ${name}`}>
                            {a === "edit" ? "Edit" : "Verify"}
                          </Link>
                        ))}
                      {usability.usable && (
                        <Link className="button button-small" to={`/app/speech-synthesis/text-to-speech?voice_id=${encodeURIComponent(v.voice_id)}`} aria-label={`Use ${name}`}>
                          Use
                        </Link>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            {list.loading && list.voices.length === 0 && <SkeletonRows rows={5} label="Loading your voices" />}
            {!list.loading && !list.error && list.voices.length === 0 && (
              <EmptyState
                icon="voices"
                title={narrowed ? "No voices found" : "No voices yet"}
                action={
                  narrowed ? (
                    <button type="button" className="button" onClick={() => setQuery((q) => ({ search: "", filter: "all", sort: q.sort, collectionId: null }))}>
                      Show all voices
                    </button>
                  ) : (
                    <Link className="button button-primary" to={VOICE_LIBRARY_PATH}>
                      Explore the Voice Library
                    </Link>
                  )
                }
              >
                <p>{narrowed ? "No voice matches this search." : "Add voices from the Voice Library, or create your own."}</p>
              </EmptyState>
            )}
            <div ref={sentinel} className="library-more">
              {!list.loading && list.hasMore && (
                <button type="button" className="button" onClick={list.loadMore}>
                  Load more voices
                </button>
              )}
            </div>
          </section>
        </div>

        {openId && (
          <VoiceDetail
            key={openId}
            voiceId={openId}
            collections={collections}
            onClose={() => openVoice(null)}
            onChanged={(v) => list.replace(v)}
            onDeleted={(id) => {
              list.remove(id);
              openVoice(null);
            }}
          />
        )}
      </div>

      {modal && modal.kind !== "delete" && (
        <CollectionDialog
          collection={modal.kind === "edit" ? modal.collection : null}
          onClose={() => setModal(null)}
          onSaved={(c) => {
            setModal(null);
            toast.show({ message: modal.kind === "edit" ? "Collection saved" : `Collection ${c.title} created` });
            void reloadCollections();
          }}
        />
      )}
      {modal?.kind === "delete" && (
        <ConfirmDialog
          title="Delete collection"
          confirmLabel="Delete"
          onClose={() => setModal(null)}
          onConfirm={async () => {
            try {
              const res = await v1Fetch(`/v1/voices/collections/${encodeURIComponent(modal.collection.collection_id)}`, { method: "DELETE" });
              if (!res.ok) throw await apiCallError(res);
              setModal(null);
              setQuery((q) => ({ ...q, collectionId: null }));
              void reloadCollections();
              return null;
            } catch (e) {
              return e instanceof Error ? e.message : "The collection could not be deleted.";
            }
          }}
        >
          <p>Delete the collection {modal.collection.title}? Its voices stay in My Voices.</p>
        </ConfirmDialog>
      )}
      <AddNewVoiceDialog slots={slots} />
    </Page>
  );
}
