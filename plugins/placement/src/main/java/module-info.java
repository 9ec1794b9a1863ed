/**
 * The built-in placement policies: {@code spread} (the default, emptiest GPUs first) and
 * {@code pack} (fullest GPU that still fits). Nothing is exported: core reaches the policies only
 * through {@link java.util.ServiceLoader}, so their classes can change freely.
 */
module nvidb.plugins.placement {
    requires nvidb.spi;

    provides nvidb.spi.placement.PlacementPolicyFactory with
            nvidb.plugins.placement.SpreadPolicyFactory,
            nvidb.plugins.placement.PackPolicyFactory;
}
