import { useApp } from '../stores/app';
import { Overview } from '../views/overview/Overview';
import { SearchView } from '../views/search/SearchView';
import { ChangesView } from '../views/changes/ChangesView';
import { CollectionList } from '../views/list/CollectionList';
import { Detail } from '../views/detail/Detail';
import { Settings } from '../views/settings/Settings';
import { OutboxView } from '../views/outbox/OutboxView';
import { ReportsView } from '../views/reports/ReportsView';
import { HelpView } from '../views/help/HelpView';

export function Routes() {
  const route = useApp((s) => s.route);
  switch (route.view) {
    case 'overview':
      return <Overview />;
    case 'search':
      return <SearchView initialQuery={route.query ?? ''} />;
    case 'changes':
      return <ChangesView key={`${route.fromRun ?? ''}-${route.toRun ?? ''}`} fromRun={route.fromRun} toRun={route.toRun} />;
    case 'list':
      return <CollectionList key={route.collection} collection={route.collection} />;
    case 'detail':
      return <Detail key={`${route.collection}/${route.id}`} collection={route.collection} id={route.id} />;
    case 'settings':
      return <Settings />;
    case 'outbox':
      return <OutboxView key={route.editTemplate ?? ''} editTemplate={route.editTemplate} />;
    case 'reports':
      return <ReportsView key={route.draft ? JSON.stringify(route.draft) : ''} draft={route.draft} />;
    case 'help':
      return <HelpView doc={route.doc} anchor={route.anchor} />;
  }
}
