package nvidb.core.store;

/** The database and its repositories, opened together. */
public final class Store implements AutoCloseable {
    public final Database db;
    public final JobRepository jobs;
    public final EventLog events;
    public final AlertRepository alerts;
    public final DeliveryRepository deliveries;
    public final NodeRepository nodes;
    public final LaneRepository lanes;
    public final LeaseRepository leases;
    public final MetaRepository meta;
    private final OrphanRepository orphans;
    public final GpuRepository gpus;
    public final SweepRepository sweeps;
    public final BatchRepository batch;
    public final HistoryRepository history;
    public final UsageRepository usage;
    public final AccountingRepository accounting;
    public final LabRepository lab;
    public final WebTokenRepository webTokens;

    private Store(Database db) {
        this.db = db;
        this.jobs = new JobRepository(db);
        this.events = new EventLog(db);
        this.alerts = new AlertRepository(db);
        this.deliveries = new DeliveryRepository(db);
        this.nodes = new NodeRepository(db);
        this.lanes = new LaneRepository(db);
        this.leases = new LeaseRepository(db);
        this.meta = new MetaRepository(db);
        this.orphans = new OrphanRepository(db);
        this.gpus = new GpuRepository(db);
        this.sweeps = new SweepRepository(db);
        this.batch = new BatchRepository(db);
        this.history = new HistoryRepository(db);
        this.usage = new UsageRepository(db);
        this.accounting = new AccountingRepository(db);
        this.lab = new LabRepository(db);
        this.webTokens = new WebTokenRepository(db);
    }

    public static Store open(java.nio.file.Path path) {
        return new Store(Database.open(path));
    }

    /** @param recovery what to do when the file turns out to be damaged (the newest backup, named) */
    public static Store open(java.nio.file.Path path, java.util.function.Supplier<String> recovery) {
        return new Store(Database.open(path, recovery));
    }

    public OrphanRepository orphans() {
        return orphans;
    }

    @Override
    public void close() {
        db.close();
    }
}
