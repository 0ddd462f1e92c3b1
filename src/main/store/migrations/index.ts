import type { Migration } from '../migrate';
import m0001 from './0001-sync-runs';
import m0002 from './0002-object-versions';
import m0003 from './0003-search-index';
import m0004 from './0004-search-facets';
import m0005 from './0005-search-queue';
import m0006 from './0006-run-origin';
import m0007 from './0007-campaign-views';
import m0008 from './0008-current-hash';
import m0009 from './0009-sync-holder';
import m0010 from './0010-added-ids';
import m0011 from './0011-live-origin';
import m0012 from './0012-compact-store';
import m0013 from './0013-lz4-raws';
import m0014 from './0014-name-keys';
import m0015 from './0015-search-buffer';
import m0100 from './0100-outbox';
import m0101 from './0101-outbox-batches';
import m0200 from './0200-review-worksheets';

/**
 * Every migration of the store, one line each. A migration is a file `NNNN-name.ts` in this folder
 * exporting `{ version: NNNN, name, up(db) }`; add its line here (a unit test checks that every
 * file is listed). Versions only grow; a shipped migration is never edited.
 */
export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0100,
  m0101,
  m0200,
];
