import type { Database, Statement } from 'better-sqlite3';
import { rawCodec, type StoredRaw } from './raw-codec';
import {
  COLLECTIONS,
  collection as descriptorOf,
  compactWord,
  decodeColumns,
  extractColumns,
  FACET_COLUMNS,
  facetToken,
  facetsText,
  SEARCH_TEXT_REVISION,
  type CollectionDescriptor,
  type CollectionId,
} from '../collections';
import { columnRef, filterSql, pageNumber, pageSql, StoreQueryError } from './query';
import type { Filters, FilterValue, SearchHit, SearchOptions } from './types';
import { queryProblem, SEARCH_COUNT_CAP } from '../../shared/search-limits';

/**
 * Offline search. The index (FTS5, rowid = objects.oid, current objects only) has three columns:
 * `title` and `body`, the text people search (each descriptor's searchText), and `facets`: one
 * token per value of a filterable column (`filter: true` in the descriptors: states,
 * classifications, trigger types, action kinds, enabled) and one for the collection. Facet tokens
 * start with a private-use character that typed queries never carry, so no word or prefix a person
 * types can match them, and filters on them are index lookups intersected with the words.
 *
 * The cost stays bounded on a million objects, whatever is typed:
 * - every statement streams the index: a typed prefix is expanded through `search_terms` into an
 *   OR of the words it starts (only prefixes of two to four letters use FTS5's prefix index, which
 *   streams too; a one-letter prefix starting too many words to list is split into its two-letter
 *   prefixes), where FTS5's own prefix search would first merge every matching posting list;
 * - matches are counted up to a cap (SEARCH_LIMITS);
 * - bm25 ranks the matches when the words and filters are selective enough (bm25 reads the whole
 *   posting list of each of them, which `search_terms` tells the size of); otherwise, and for
 *   any query matching more than the rank window, hits come names first, then newest first;
 * - objects and snippets are read for the returned hits only.
 */

export interface SearchLimits {
  /** Matches are counted up to this many; above it the total says "at least this many". */
  countCap: number;
  /** At most this many matches are ordered by relevance or by a column (the newest, when more match). */
  rankWindow: number;
  /** bm25 is used when the posting lists of all the query's words and filters hold at most this many entries together. */
  bm25Budget: number;
}

export const SEARCH_LIMITS: SearchLimits = { countCap: SEARCH_COUNT_CAP, rankWindow: 10_000, bm25Budget: 60_000 };
/** A typed prefix is expanded into at most this many words; more, and FTS5's own prefix search is used. */
const EXPANSION_LIMIT = 64;
/** FTS5 keeps a prefix index for these lengths (see the migration: prefix = '2 3 4'): those prefixes stream as they are. */
const INDEXED_PREFIX_MIN = 2;
const INDEXED_PREFIX_MAX = 4;
/** A one-letter prefix starting more words than the expansion limit is split into at most this many two-letter prefixes. */
const SPLIT_LIMIT = 256;

/** The index's tokenizer (see the migrations). */
const TOKENIZE = 'unicode61 remove_diacritics 2';

/** Case- and accent-folded like the index's tokenizer (unicode61, remove_diacritics 2). */
function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The statements search runs, prepared once per connection (by text and pluck mode), so no keystroke prepares one. */
const STATEMENTS = new WeakMap<Database, Map<string, Statement>>();
const STATEMENTS_MAX = 256;

function prepared(db: Database, sql: string, pluck = false): Statement {
  let byText = STATEMENTS.get(db);
  if (!byText) STATEMENTS.set(db, (byText = new Map()));
  const key = `${pluck ? 'p' : 'r'}${sql}`;
  let statement = byText.get(key);
  if (!statement) {
    if (byText.size >= STATEMENTS_MAX) byText.clear();
    statement = db.prepare(sql);
    if (pluck) statement.pluck();
    byText.set(key, statement);
  }
  return statement;
}

/**
 * Readies a store's search before anyone types: its statements prepared, and the word list's and
 * the index's first pages read, by looking up and searching the start of the first indexed word.
 * For the app to run once the store is open, off the path of any keystroke.
 */
export function warmSearch(db: Database): void {
  const first = prepared(db, 'SELECT term FROM search_terms ORDER BY term LIMIT 1', true).get() as string | undefined;
  const letter = first ? [...first][0]! : 'a';
  for (const query of [letter, first ? [...first].slice(0, 2).join('') : letter]) {
    searchObjects(db, query, { limit: 50 });
    countByCollection(db, query);
  }
}

/** What the index knows of its tokens: the words a prefix starts, and how many objects hold a token. */
export interface TermLookup {
  /** The indexed words starting with `prefix` with their object counts; null when more than the limit. */
  expand(prefix: string): { term: string; docs: number }[] | null;
  /** Objects holding `term` (0 when unknown). */
  docs(term: string): number;
  /** The distinct two-letter beginnings of the indexed words longer than the one-letter `prefix`; null when more than the limit. */
  split(prefix: string): string[] | null;
}

export function termLookup(db: Database): TermLookup {
  const range = prepared(db, 'SELECT term, docs FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?');
  const one = prepared(db, 'SELECT docs FROM search_terms WHERE term = ?', true);
  const next = prepared(db, 'SELECT term FROM search_terms WHERE term > ? AND term < ? ORDER BY term LIMIT 1', true);
  return {
    expand: (prefix) => {
      const rows = range.all(prefix, `${prefix}\u{10FFFF}`, EXPANSION_LIMIT + 1) as { term: string; docs: number }[];
      return rows.length > EXPANSION_LIMIT ? null : rows;
    },
    docs: (term) => (one.get(term) as number | undefined) ?? 0,
    split: (prefix) => {
      // A skip scan: one index seek per distinct second letter.
      const beginnings: string[] = [];
      for (let after = prefix; beginnings.length <= SPLIT_LIMIT;) {
        const term = next.get(after, `${prefix}\u{10FFFF}`) as string | undefined;
        if (term === undefined) return beginnings;
        const two = [...term].slice(0, 2).join('');
        beginnings.push(two);
        after = `${two}\u{10FFFF}`;
      }
      return null;
    },
  };
}

/** A query for the index: the FTS5 expression of the words, and the posting entries bm25 would read for them. */
export interface WordsQuery {
  match: string;
  postings: number;
}

/**
 * Turns what a person types into an FTS5 query: every word also matches as a prefix (`adm` finds
 * `admin`), all words must match, "quoted words" match as a phrase, a raw enum name
 * (`XAA_SCOPE_STATE_ENABLED`) matches the value it names. Operators, column filters and
 * facet tokens are never passed through, so no input can make the query invalid. With `terms`,
 * prefixes are expanded into the words they start; without, FTS5 prefix queries are used and the
 * posting count is unknown (Infinity). Null when there is nothing to search.
 */
export function wordsQuery(input: string, terms?: TermLookup): WordsQuery | null {
  // Refused before anything is parsed or looked up: the cost of a search grows with its words.
  const problem = queryProblem(input);
  if (problem) throw new StoreQueryError(`${problem[0]!.toUpperCase()}${problem.slice(1)}: shorten it.`);
  const parts: string[] = [];
  let postings = 0;
  for (const m of input.matchAll(/"([^"]*)"|([^\s"]+)/g)) {
    const words = (m[1] ?? m[2] ?? '').match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) continue;
    if (m[1] !== undefined) {
      parts.push(`"${words.join(' ')}"`);
      postings += terms ? words.reduce((sum, w) => sum + terms.docs(fold(w)), 0) : Infinity;
      continue;
    }
    const each = words.map((w) => wordPart(w, terms));
    if (words.length > 1 && RAW_NAME.test(m[2]!)) {
      // A raw enum name (XAA_SCOPE_STATE_ENABLED, or the start of one): the index holds it as one
      // word (see collections/facets.ts); or its words, wherever they are.
      const whole = wordPart(compactWord(m[2]!), terms);
      parts.push(`(${whole.part} OR (${each.map((e) => e.part).join(' AND ')}))`);
      postings += whole.postings + each.reduce((sum, e) => sum + e.postings, 0);
      continue;
    }
    for (const e of each) {
      parts.push(e.part);
      postings += e.postings;
    }
  }
  return parts.length === 0 ? null : { match: parts.join(' AND '), postings };
}

/** Words joined by underscores, as enum values are written. */
const RAW_NAME = /^[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+_?$/u;

/** The FTS5 expression of one typed word (it matches as a prefix), and the posting entries it reads. */
function wordPart(w: string, terms: TermLookup | undefined): { part: string; postings: number } {
  const folded = fold(w);
  const expansion = terms?.expand(folded) ?? null;
  const postings = expansion?.reduce((sum, t) => sum + t.docs, 0) ?? Infinity;
  const length = [...folded].length;
  const split = terms && expansion === null && length < INDEXED_PREFIX_MIN ? terms.split(folded) : null;
  if (split !== null && split.length > 0) {
    // One letter, no prefix index for it, and too many words to list: the letter as a word,
    // or any of its two-letter prefixes (each streams from the prefix index), where FTS5's
    // own prefix query would first merge the posting lists of every word it starts.
    return { part: `("${w}" OR ${split.map((b) => `"${b}"*`).join(' OR ')})`, postings };
  }
  if (
    expansion === null ||
    expansion.length === 0 ||
    (length >= INDEXED_PREFIX_MIN && length <= INDEXED_PREFIX_MAX && expansion.length > 1)
  ) {
    // Many words start with it (FTS5's prefix index streams short prefixes), or none is known
    // yet (the list of words is refreshed after each sync): FTS5's own prefix query.
    return { part: `"${w}"*`, postings };
  }
  // The word itself, or any indexed word it starts.
  const others = expansion.filter((t) => t.term !== folded);
  return { part: others.length === 0 ? `"${w}"` : `("${w}" OR ${others.map((t) => `"${t.term}"`).join(' OR ')})`, postings };
}

/** The FTS5 expression of typed words (prefix queries; for callers that count or group matches themselves). */
export function ftsQuery(input: string): string | null {
  return wordsQuery(input)?.match ?? null;
}

/**
 * The WHERE condition keeping the objects of `collection` whose indexed text (name, descriptions,
 * values, CEL, enum labels) matches the typed words as search matches them (prefixes): a list's text
 * filter. Matches the current text of each object. Nothing when no words were typed.
 */
export function textFilterSql(collection: CollectionId, text: string | undefined, params: unknown[]): string[] {
  if (!text || !text.trim()) return [];
  const words = ftsQuery(text);
  // Only characters no word is made of: nothing can match.
  if (words === null) return ['0'];
  params.push(`(${words}) AND "${facetToken('collection', descriptorOf(collection).id)}"`);
  return ['o.oid IN (SELECT rowid FROM search_index WHERE search_index MATCH ?)'];
}

/** Splits filters into facet lookups (added to the MATCH) and the rest (a join). */
function splitFilters(filters: Filters | undefined, terms: TermLookup): { facets: string[]; postings: number; rest: Filters } {
  const facets: string[] = [];
  let postings = 0;
  const rest: Filters = {};
  for (const [name, raw] of Object.entries(filters ?? {})) {
    const values = (Array.isArray(raw) ? raw : [raw]) as FilterValue[];
    if (values.length === 0) continue;
    if (!FACET_COLUMNS.has(name)) {
      rest[name] = raw;
      continue;
    }
    const tokens = values.map((v) => facetToken(name, v === 1 || v === '1' ? 'true' : v === 0 || v === '0' ? 'false' : v));
    facets.push(`(${tokens.map((t) => `"${t}"`).join(' OR ')})`);
    postings += tokens.reduce((sum, t) => sum + terms.docs(t), 0);
  }
  return { facets, postings, rest };
}

interface ObjectRow {
  collection: CollectionId;
  id: string;
  title: string;
  cols: string;
  raw: StoredRaw;
  raw_dict: number | null;
}

/** The index's columns for an object, as the sync writes them. */
export function searchEntryOf(collection: CollectionId, json: unknown): { title: string; body: string; facets: string } {
  const d = descriptorOf(collection);
  const text = d.searchText(json);
  return { title: text.title, body: text.body, facets: facetsText(d.id, extractColumns(d, json)) };
}

/** The snippet (of the body) of each of `objects` for `match`, made in a temporary index of theirs alone. */
function snippetsOf(
  db: Database,
  objects: ReadonlyMap<number, ObjectRow>,
  match: string,
  open: string,
  close: string,
): Map<number, string> {
  const snippets = new Map<number, string>();
  if (objects.size === 0) return snippets;
  const codec = rawCodec(db);
  // The hits' text in a table of its own, indexed over it (external content): emptied after in two
  // steps that read nothing back ('delete-all'), where deleting indexed rows would tokenize them again.
  if (!prepared(db, "SELECT 1 FROM temp.sqlite_master WHERE name = 'search_hits'", true).get())
    db.exec(`
      CREATE TEMP TABLE search_hit_docs (rowid INTEGER PRIMARY KEY, title TEXT, body TEXT, facets TEXT);
      CREATE VIRTUAL TABLE temp.search_hits USING fts5(title, body, facets, content = 'search_hit_docs', tokenize = '${TOKENIZE}');
    `);
  const insertDoc = prepared(db, 'INSERT INTO temp.search_hit_docs (rowid, title, body, facets) VALUES (?, ?, ?, ?)');
  const index = prepared(
    db,
    'INSERT INTO temp.search_hits (rowid, title, body, facets) SELECT rowid, title, body, facets FROM temp.search_hit_docs',
  );
  const clearDocs = prepared(db, 'DELETE FROM temp.search_hit_docs');
  const clearIndex = prepared(db, "INSERT INTO temp.search_hits (search_hits) VALUES ('delete-all')");
  try {
    for (const [oid, o] of objects) {
      const entry = searchEntryOf(o.collection, JSON.parse(codec.text(o.raw, o.raw_dict)) as unknown);
      insertDoc.run(oid, entry.title, entry.body, entry.facets);
    }
    index.run();
    const rows = prepared(
      db,
      "SELECT rowid AS oid, snippet(search_hits, 1, ?, ?, '…', 16) AS snippet FROM temp.search_hits WHERE search_hits MATCH ?",
    ).all(open, close, match) as { oid: number; snippet: string }[];
    for (const row of rows) snippets.set(row.oid, row.snippet);
  } finally {
    clearIndex.run();
    clearDocs.run();
  }
  return snippets;
}

/** bm25 with names weighing eight times the rest; facets do not count. Lower is better. */
const BM25 = 'bm25(search_index, 8.0, 1.0, 0.0)';

export interface SearchResult {
  hits: SearchHit[];
  /** Matches, counted up to the count cap (10,000). */
  total: number;
  /** More matched than the cap: `total` is a lower bound ("10,000+"). */
  capped: boolean;
  /** How the hits are ordered: bm25, names first then newest, or the requested column. */
  order: 'bm25' | 'names-first' | 'column';
}

/**
 * Offline search over the current objects: FTS5 with prefix matching, ranking, optionally one
 * collection and column filters, a snippet per hit, and the number of matches. `rank` of a hit is
 * its bm25 score, or 0 for a match in the name and 1 for one elsewhere (lower is better).
 */
export function searchObjects(db: Database, query: string, opts: SearchOptions = {}, limits: SearchLimits = SEARCH_LIMITS): SearchResult {
  const { countCap, rankWindow, bm25Budget } = limits;
  const limit = pageNumber('limit', opts.limit ?? 50);
  const offset = pageNumber('offset', opts.offset ?? 0);
  const terms = termLookup(db);
  const words = wordsQuery(query, terms);
  if (words === null) return { hits: [], total: 0, capped: false, order: 'bm25' };
  const d = opts.collection ? descriptorOf(opts.collection) : null;
  const { facets, postings: facetPostings, rest } = splitFilters(opts.filters, terms);
  if (d) {
    facets.unshift(`"${facetToken('collection', d.id)}"`);
  }
  const filtersMatch = facets.map((f) => ` AND ${f}`).join('');
  const match = `(${words.match})${filtersMatch}`;
  const [open, close] = opts.highlight ?? ['«', '»'];

  // Filters on columns that are not facets, and sorting by a column, need the objects: a join.
  const joinParams: unknown[] = [];
  const joinWhere = filterSql(d, rest, joinParams);
  const needsJoin = joinWhere.length > 0 || opts.sort !== undefined;
  const from = needsJoin
    ? 'FROM search_index s JOIN objects o ON o.oid = s.rowid JOIN object_versions v ON v.vid = o.current_vid'
    : 'FROM search_index s';
  const where = ['search_index MATCH ?', ...joinWhere].join(' AND ');

  const counted = prepared(db, `SELECT count(*) FROM (SELECT s.rowid ${from} WHERE ${where} LIMIT ${countCap + 1})`, true).get(
    match,
    ...joinParams,
  ) as number;
  const capped = counted > countCap;
  const total = Math.min(counted, countCap);
  // Objects named exactly what was typed, then those whose name starts with it, come first in any
  // order but a column's; the rest follow in their own order, without them.
  const leading = opts.sort ? [] : leadingNames(db, query, d, opts.filters);
  if (leading.length > 0) {
    joinWhere.push('s.rowid NOT IN (SELECT value FROM json_each(?))');
    joinParams.push(JSON.stringify(leading.map((l) => l.oid)));
  }
  const restWhere = ['search_index MATCH ?', ...joinWhere].join(' AND ');
  const collectionPostings = d ? terms.docs(facetToken('collection', d.id)) : 0;
  const useBm25 = counted <= rankWindow && words.postings + facetPostings + collectionPostings <= bm25Budget;
  const order: SearchResult['order'] = opts.sort ? 'column' : useBm25 ? 'bm25' : 'names-first';
  if (total === 0 || limit === 0) return { hits: [], total, capped, order };
  const ranked = [
    ...leading.slice(offset, offset + limit),
    ...rankRest(db, opts, d, {
      from,
      where: restWhere,
      params: joinParams,
      match,
      words,
      filtersMatch,
      limit: Math.max(0, limit - Math.max(0, leading.length - offset)),
      offset: Math.max(0, offset - leading.length),
      useBm25,
      rankWindow,
    }),
  ];
  if (ranked.length === 0) return { hits: [], total, capped, order };
  return { hits: hitsOf(db, ranked, match, open, close), total, capped, order };
}

interface RestQuery {
  from: string;
  where: string;
  params: unknown[];
  match: string;
  words: WordsQuery;
  filtersMatch: string;
  limit: number;
  offset: number;
  useBm25: boolean;
  rankWindow: number;
}

/** The page of the matches after the leading names: by a column, by bm25, or names first then newest. */
function rankRest(
  db: Database,
  opts: SearchOptions,
  d: ReturnType<typeof descriptorOf> | null,
  q: RestQuery,
): { oid: number; rank: number }[] {
  const { from, where, params: joinParams, match, words, filtersMatch, limit, offset, useBm25, rankWindow } = q;
  if (limit === 0) return [];
  const select = (fts: string, tail: string, extra: unknown[] = []) =>
    prepared(db, `SELECT s.rowid ${from} WHERE ${where}${tail}`, true).all(fts, ...joinParams, ...extra) as number[];
  let ranked: { oid: number; rank: number }[];
  if (opts.sort) {
    // By a column: the newest rank-window matches (all, when fewer), sorted.
    const pageParams: unknown[] = [];
    const page = pageSql(limit, offset, pageParams);
    const key = columnRef(d, opts.sort.column).sql;
    const dir = opts.sort.dir === 'desc' ? 'DESC' : 'ASC';
    ranked = prepared(
      db,
      `SELECT oid, 0 AS rank FROM (SELECT s.rowid AS oid, ${key} AS k ${from} WHERE ${where} ORDER BY s.rowid DESC LIMIT ${rankWindow})
         ORDER BY k IS NULL, k ${dir}, oid DESC ${page}`,
    ).all(match, ...joinParams, ...pageParams) as { oid: number; rank: number }[];
  } else if (useBm25) {
    // All the matches (at most the rank window) by bm25.
    const pageParams: unknown[] = [];
    const page = pageSql(limit, offset, pageParams);
    ranked = prepared(db, `SELECT s.rowid AS oid, ${BM25} AS rank ${from} WHERE ${where} ORDER BY rank ${page}`).all(
      match,
      ...joinParams,
      ...pageParams,
    ) as { oid: number; rank: number }[];
  } else {
    // Names first, then the rest; newest first within each. Every statement streams and stops early.
    const inTitle = `({title} : (${words.match}))${filtersMatch}`;
    const elsewhere = `(${words.match})${filtersMatch} NOT {title} : (${words.match})`;
    const named = prepared(db, `SELECT count(*) FROM (SELECT s.rowid ${from} WHERE ${where} LIMIT ${offset + limit})`, true).get(
      inTitle,
      ...joinParams,
    ) as number;
    const first = offset < named ? select(inTitle, ' ORDER BY s.rowid DESC LIMIT ? OFFSET ?', [limit, offset]) : [];
    const rest =
      first.length < limit
        ? select(elsewhere, ' ORDER BY s.rowid DESC LIMIT ? OFFSET ?', [limit - first.length, Math.max(0, offset - named)])
        : [];
    ranked = [...first.map((oid) => ({ oid, rank: 0 })), ...rest.map((oid) => ({ oid, rank: 1 }))];
  }
  return ranked;
}

/** The hits of ranked objects: each with its snippet of the body and its columns. */
function hitsOf(db: Database, ranked: { oid: number; rank: number }[], match: string, open: string, close: string): SearchHit[] {
  // Snippets (of the body: the title is shown whole): the index keeps no copy of the text, so the
  // hits' entries are made again from their stored objects into a small index of their own, and
  // FTS5 makes each snippet there with the same match (the same words, prefixes and facets).
  const object = prepared(
    db,
    `SELECT o.collection, o.id, v.title, v.cols, v.raw, v.raw_dict
     FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE o.oid = ?`,
  );
  const found = new Map<number, ObjectRow>();
  for (const r of ranked) {
    const o = object.get(r.oid) as ObjectRow | undefined;
    if (o) found.set(r.oid, o);
  }
  const snippets = snippetsOf(db, found, match, open, close);
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const o = found.get(r.oid);
    if (!o) continue;
    hits.push({
      collection: o.collection,
      id: o.id,
      title: o.title,
      snippet: snippets.get(r.oid) ?? '',
      rank: r.rank,
      columns: decodeColumns(descriptorOf(o.collection), o.cols),
    });
  }
  return hits;
}

/** How many objects whose name starts with what was typed are read to find the exact and prefix matches. */
const LEADING_WINDOW = 1_000;
/** Rank of an exact name match and of a name that starts with the query: before any bm25 score or names-first rank. */
const EXACT_RANK = -1e9;
const PREFIX_RANK = -1e9 + 1;

/**
 * Text folded and spaced as names are compared: case and accents folded, runs of spaces as one.
 * Each current object keeps its name's key (`objects.name_key`, indexed), so the names that start
 * with what was typed are one range of that index.
 */
export function nameKey(text: string): string {
  return fold(text).trim().replace(/\s+/g, ' ');
}

/**
 * The matches whose name is exactly what was typed (case and accents aside), then those whose name
 * starts with it (shortest first, then newest): a range of the name keys' index, with the search's
 * collection and filters. (Asking the index for the names that start with the words read every
 * name holding a common word: "access" took tens of milliseconds over a million objects.)
 */
function leadingNames(
  db: Database,
  query: string,
  d: CollectionDescriptor | null,
  filters: Filters | undefined,
): { oid: number; rank: number }[] {
  const typed = nameKey(query.replace(/"/g, ' '));
  if (!/[\p{L}\p{N}]/u.test(typed)) return [];
  const filterParams: unknown[] = [];
  const filtersWhere = filterSql(d, filters, filterParams)
    .map((w) => ` AND ${w}`)
    .join('');
  // One range of the index per collection (the index is by collection, then name key; only
  // current objects have a key), read from the index alone unless a filter needs the version.
  const versions = filtersWhere ? ' JOIN object_versions v ON v.vid = o.current_vid' : '';
  const range = prepared(
    db,
    `SELECT o.oid, o.name_key AS key FROM objects o${versions}
     WHERE o.collection = ? AND o.name_key >= ? AND o.name_key < ?${filtersWhere} ORDER BY o.name_key LIMIT ${LEADING_WINDOW}`,
  );
  const rows = (d ? [d] : COLLECTIONS).flatMap(
    (c) => range.all(c.id, typed, `${typed}\u{10FFFF}`, ...filterParams) as { oid: number; key: string }[],
  );
  const found = rows.map((r) => ({ oid: r.oid, rank: r.key === typed ? EXACT_RANK : PREFIX_RANK, length: r.key.length }));
  found.sort((a, b) => a.rank - b.rank || a.length - b.length || b.oid - a.oid);
  return found.slice(0, LEADING_WINDOW).map(({ oid, rank }) => ({ oid, rank }));
}

/**
 * The matches of typed words per collection, each counted up to the count cap like the total of
 * `searchObjects` (one streaming count per collection: the words and the collection's facet token).
 */
export function countByCollection(db: Database, query: string, limits: SearchLimits = SEARCH_LIMITS): Record<string, number> {
  const words = wordsQuery(query, termLookup(db));
  if (words === null) return {};
  const count = prepared(
    db,
    `SELECT count(*) FROM (SELECT rowid FROM search_index WHERE search_index MATCH ? LIMIT ${limits.countCap})`,
    true,
  );
  const counts: Record<string, number> = {};
  for (const d of COLLECTIONS) {
    const n = count.get(`(${words.match}) AND "${facetToken('collection', d.id)}"`) as number;
    if (n > 0) counts[d.id] = n;
  }
  return counts;
}

/**
 * Refreshes the list of indexed tokens and their object counts from the index itself (exactly as
 * its tokenizer made them). Run after a sync; until then, new words still match whole, and as
 * prefixes of at most four letters or that no known word starts.
 */
export function refreshSearchTerms(db: Database): void {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_index, 'row')");
  db.transaction(() => {
    db.exec('DELETE FROM search_terms');
    db.exec('INSERT INTO search_terms (term, docs) SELECT term, doc FROM temp.search_vocab');
  })();
}

const REVISION_KEY = 'search_text_revision';
/** Present while the index holds entries written since `search_terms` was last refreshed. */
export const TERMS_STALE_KEY = 'search_terms_stale';

/**
 * Rebuilds the index from the stored raw JSON when the descriptors index other text than the
 * index was built with (and after a migration that recreated it). A no-op otherwise.
 */
export function ensureSearchIndex(db: Database): boolean {
  const current = db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck().get(REVISION_KEY) as string | undefined;
  if (current === String(SEARCH_TEXT_REVISION)) return false;
  rebuildSearchIndex(db);
  return true;
}

/**
 * Writes the search entries a crashed sync had noted but not written yet (from the stored
 * objects). Run when the store is opened for writing; a no-op when the queue is empty.
 */
export function recoverSearchQueue(db: Database): number {
  const batch = db.prepare(
    `SELECT q.oid, o.collection, v.raw, v.raw_dict FROM search_queue q
     LEFT JOIN objects o ON o.oid = q.oid LEFT JOIN object_versions v ON v.vid = o.current_vid
     WHERE q.oid > ? ORDER BY q.oid LIMIT 2000`,
  );
  const remove = db.prepare('DELETE FROM search_index WHERE rowid = ?');
  const insert = db.prepare('INSERT INTO search_index (rowid, title, body, facets) VALUES (?, ?, ?, ?)');
  const setNameKey = db.prepare('UPDATE objects SET name_key = ? WHERE oid = ?');
  const dequeue = db.prepare('DELETE FROM search_queue WHERE oid = ?');
  const codec = rawCodec(db);
  let done = 0;
  for (let after = 0; ;) {
    const rows = batch.all(after) as { oid: number; collection: CollectionId | null; raw: StoredRaw | null; raw_dict: number | null }[];
    if (rows.length === 0) break;
    db.transaction(() => {
      for (const r of rows) {
        remove.run(r.oid);
        let entry: { title: string; body: string; facets: string } | null = null;
        if (r.collection !== null && r.raw !== null) {
          entry = searchEntryOf(r.collection, JSON.parse(codec.text(r.raw, r.raw_dict)) as unknown);
          insert.run(r.oid, entry.title, entry.body, entry.facets);
        }
        // The name key goes with the search entry (see SyncWriter.flushSearch).
        setNameKey.run(entry ? nameKey(entry.title) : null, r.oid);
        dequeue.run(r.oid);
      }
    })();
    done += rows.length;
    after = rows[rows.length - 1]!.oid;
  }
  // The list of indexed words is refreshed by the next sync that stores pages.
  if (done > 0) db.prepare(`INSERT OR IGNORE INTO store_meta (key, value) VALUES ('${TERMS_STALE_KEY}', '1')`).run();
  return done;
}

export function rebuildSearchIndex(db: Database): void {
  db.transaction(() => {
    db.exec("INSERT INTO search_index (search_index) VALUES ('delete-all')");
    db.exec('DELETE FROM search_queue');
    const insert = db.prepare('INSERT INTO search_index (rowid, title, body, facets) VALUES (?, ?, ?, ?)');
    const setNameKey = db.prepare('UPDATE objects SET name_key = ? WHERE oid = ?');
    const codec = rawCodec(db);
    // In batches: a write cannot run while a read is still iterating on the same connection.
    const batch = db.prepare(
      `SELECT o.oid, o.collection, v.raw, v.raw_dict FROM objects o JOIN object_versions v ON v.vid = o.current_vid
       WHERE o.oid > ? ORDER BY o.oid LIMIT 2000`,
    );
    for (let after = 0; ;) {
      const rows = batch.all(after) as { oid: number; collection: CollectionId; raw: StoredRaw; raw_dict: number | null }[];
      if (rows.length === 0) break;
      for (const r of rows) {
        const entry = searchEntryOf(r.collection, JSON.parse(codec.text(r.raw, r.raw_dict)) as unknown);
        insert.run(r.oid, entry.title, entry.body, entry.facets);
        setNameKey.run(nameKey(entry.title), r.oid);
      }
      after = rows[rows.length - 1]!.oid;
    }
    db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
      REVISION_KEY,
      String(SEARCH_TEXT_REVISION),
    );
  })();
  refreshSearchTerms(db);
}
