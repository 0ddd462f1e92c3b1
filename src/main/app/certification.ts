import { readCertification, type CampaignSummary, type CertificationItem } from '../reports/certification';
import type { Store } from '../store/db';

export { readCertification, userNamer, type CampaignSummary, type Certification, type CertificationItem } from '../reports/certification';

/**
 * A campaign's reviewed items for its page in the app: the very rows of the certification report
 * (`attest export certification --campaign ID`), and their counts.
 */
export function campaignItems(
  store: Store,
  campaignId: string,
): { items: CertificationItem[]; summary: CampaignSummary | null; asOf: string | null } {
  const found = readCertification(store, { campaignId });
  return { items: found.items, summary: found.campaigns.find((c) => c.campaignId === campaignId) ?? null, asOf: found.asOf };
}
