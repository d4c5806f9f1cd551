import { LRUCache } from 'lru-cache';
import { NotFoundError, type Database, type Logger, type NotificationSubscription } from '@whistle/service-kit';
import { loadPublicCompany, type PublicCompany } from './public-company';
import { PUBLIC_VIEW_CHANNEL } from './public-view-announcements';

export interface PublicCompanyCacheOptions {
  /** Companies kept; the least recently asked for leave first. */
  max?: number;
  /** A safety net only: entries are dropped when their company changes, announced by any replica. */
  ttlMs?: number;
}

/**
 * The public view of the companies disclosers are opening, in this process. A change is announced with
 * NOTIFY at COMMIT (public-view-announcements) and heard by every replica on the same database, so each
 * drops its entry at once, whichever replica made the change. While the listening connection is down,
 * nothing is kept (a missed notification could leave a stale entry); everything is dropped when it is back.
 */
export class PublicCompanyCache {
  private readonly entries: LRUCache<string, PublicCompany>;
  /** Loads under way, shared by the requests that miss at once; dropped with their entry. */
  private readonly loading = new Map<string, Promise<PublicCompany | undefined>>();
  /** Counts drops: a load that began before one must not store what it read. */
  private generation = 0;
  private listening = false;
  private subscription?: NotificationSubscription;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    { max = 10_000, ttlMs = 60_000 }: PublicCompanyCacheOptions = {},
  ) {
    this.entries = new LRUCache({ max, ttl: ttlMs });
  }

  async start(): Promise<void> {
    this.subscription = await this.db.listen(PUBLIC_VIEW_CHANNEL, {
      notified: (urlIdentifier) => this.drop(urlIdentifier),
      listening: () => {
        this.dropAll();
        this.listening = true;
      },
      interrupted: () => {
        this.listening = false;
        this.dropAll();
        this.logger.warn('public company views are read from the database until change notifications are back');
      },
    });
  }

  async stop(): Promise<void> {
    this.listening = false;
    await this.subscription?.close();
    this.dropAll();
  }

  /** The company's public view; NotFoundError when there is no such company (not kept: it may be created). */
  async get(urlIdentifier: string): Promise<PublicCompany> {
    const company = this.entries.get(urlIdentifier) ?? (await this.load(urlIdentifier));
    if (!company) throw new NotFoundError('Company not found');
    return company;
  }

  private load(urlIdentifier: string): Promise<PublicCompany | undefined> {
    const pending = this.loading.get(urlIdentifier);
    if (pending) return pending;
    const generation = this.generation;
    const load = loadPublicCompany(this.db, urlIdentifier)
      .then((company) => {
        if (company && this.listening && generation === this.generation) this.entries.set(urlIdentifier, company);
        return company;
      })
      .finally(() => {
        if (this.loading.get(urlIdentifier) === load) this.loading.delete(urlIdentifier);
      });
    this.loading.set(urlIdentifier, load);
    return load;
  }

  /**
   * Drops the company's entry now, in the replica that committed the change (the others hear of it through
   * the notification, a moment later): its next answer already shows the change.
   */
  forget(companyId: string): void {
    this.generation += 1;
    for (const [urlIdentifier, company] of this.entries.entries())
      if (company.companyId === companyId) this.entries.delete(urlIdentifier);
    this.loading.clear();
  }

  private drop(urlIdentifier: string): void {
    this.generation += 1;
    this.entries.delete(urlIdentifier);
    this.loading.delete(urlIdentifier);
  }

  private dropAll(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }
}
