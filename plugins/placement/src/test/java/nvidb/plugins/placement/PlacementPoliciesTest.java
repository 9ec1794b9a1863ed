package nvidb.plugins.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;
import nvidb.spi.PluginKind;
import nvidb.spi.placement.GpuBudget;
import nvidb.spi.placement.Placement;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.placement.PlacementRequest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PlacementPoliciesTest {

    private static final long TOTAL = 81_920;

    private static GpuBudget gpu(String node, int index, long freeMb, int queueJobs) {
        return new GpuBudget(node, index, freeMb, TOTAL, queueJobs);
    }

    private static PlacementRequest oneGpu() {
        return new PlacementRequest(1, 1, 1_000);
    }

    private static PlacementRequest gpus(int n) {
        return new PlacementRequest(2, n, 1_000);
    }

    /** The policies as core finds them, so the service registration is tested with them. */
    private static PlacementPolicy policy(String name) {
        Map<String, PlacementPolicyFactory> byName = ServiceLoader.load(PlacementPolicyFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(PlacementPolicyFactory::name, Function.identity()));
        return byName.get(name).create();
    }

    @Test
    void bothPoliciesAreRegisteredAsPlacementPlugins() {
        Map<String, PluginKind> found = ServiceLoader.load(PlacementPolicyFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(PlacementPolicyFactory::name, PlacementPolicyFactory::kind));
        assertEquals(Map.of("spread", PluginKind.PLACEMENT, "pack", PluginKind.PLACEMENT), found);
    }

    @Nested
    class Spread {
        private final PlacementPolicy spread = policy("spread");

        @Test
        void choosesTheEmptiestGpuAnywhere() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 10_000, 0), gpu("a", 1, 30_000, 2),
                    gpu("b", 0, 50_000, 3), gpu("b", 1, 20_000, 0));
            assertEquals(Optional.of(new Placement("b", List.of(0))), spread.place(oneGpu(), candidates));
        }

        @Test
        void equalRoomGoesToTheGpuWithFewerQueueJobs() {
            List<GpuBudget> candidates = List.of(gpu("a", 0, 40_000, 2), gpu("b", 3, 40_000, 1));
            assertEquals(Optional.of(new Placement("b", List.of(3))), spread.place(oneGpu(), candidates));
        }

        @Test
        void fullTieGoesToTheEarlierNodeInConfigurationOrderNotTheAlphabet() {
            List<GpuBudget> candidates = List.of(gpu("zeta", 1, 40_000, 0), gpu("alpha", 0, 40_000, 0));
            assertEquals(Optional.of(new Placement("zeta", List.of(1))), spread.place(oneGpu(), candidates));
        }

        @Test
        void fullTieOnOneNodeGoesToTheLowerIndexWhateverTheListOrder() {
            List<GpuBudget> candidates = List.of(gpu("a", 5, 40_000, 0), gpu("a", 2, 40_000, 0), gpu("a", 7, 40_000, 0));
            assertEquals(Optional.of(new Placement("a", List.of(2))), spread.place(oneGpu(), candidates));
        }

        @Test
        void multiGpuTakesTheNodeWhoseBestCardsHaveTheMostRoomTogether() {
            // "a" holds the single emptiest card, but "b"'s best two have more room together.
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 70_000, 0), gpu("a", 1, 5_000, 0),
                    gpu("b", 0, 40_000, 1), gpu("b", 1, 10_000, 0), gpu("b", 2, 45_000, 2));
            assertEquals(Optional.of(new Placement("b", List.of(0, 2))), spread.place(gpus(2), candidates));
        }

        @Test
        void multiGpuSkipsNodesWithTooFewCandidatesHoweverEmpty() {
            List<GpuBudget> candidates = List.of(
                    gpu("big", 0, 80_000, 0),
                    gpu("small", 0, 2_000, 0), gpu("small", 1, 3_000, 0));
            assertEquals(Optional.of(new Placement("small", List.of(0, 1))), spread.place(gpus(2), candidates));
        }

        @Test
        void multiGpuTieOnRoomGoesToTheNodeWithFewerQueueJobsOnTheChosenCards() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 20_000, 1), gpu("a", 1, 20_000, 1),
                    gpu("b", 0, 30_000, 0), gpu("b", 1, 10_000, 1));
            assertEquals(Optional.of(new Placement("b", List.of(0, 1))), spread.place(gpus(2), candidates));
        }

        @Test
        void returnsExactlyTheRequestedCountInAscendingIndexOrder() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 3, 60_000, 0), gpu("a", 0, 10_000, 0), gpu("a", 2, 50_000, 0), gpu("a", 1, 55_000, 0));
            assertEquals(Optional.of(new Placement("a", List.of(1, 2, 3))), spread.place(gpus(3), candidates));
        }

        @Test
        void noNodeWithEnoughCandidatesIsEmptyEvenWhenTheClusterHasEnoughInTotal() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 80_000, 0), gpu("a", 1, 80_000, 0),
                    gpu("b", 0, 80_000, 0), gpu("b", 1, 80_000, 0));
            assertEquals(Optional.empty(), spread.place(gpus(3), candidates));
        }

        @Test
        void noCandidatesIsEmpty() {
            assertEquals(Optional.empty(), spread.place(oneGpu(), List.of()));
        }
    }

    @Nested
    class Pack {
        private final PlacementPolicy pack = policy("pack");

        @Test
        void choosesTheFullestGpuThatStillFits() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 10_000, 0), gpu("a", 1, 30_000, 2),
                    gpu("b", 0, 2_000, 3), gpu("b", 1, 20_000, 0));
            assertEquals(Optional.of(new Placement("b", List.of(0))), pack.place(oneGpu(), candidates));
        }

        @Test
        void equalRoomGoesToTheGpuWithFewerQueueJobs() {
            List<GpuBudget> candidates = List.of(gpu("a", 0, 4_000, 3), gpu("a", 1, 4_000, 1));
            assertEquals(Optional.of(new Placement("a", List.of(1))), pack.place(oneGpu(), candidates));
        }

        @Test
        void fullTieGoesToTheEarlierNode() {
            List<GpuBudget> candidates = List.of(gpu("second", 0, 4_000, 0), gpu("first", 0, 4_000, 0));
            assertEquals(Optional.of(new Placement("second", List.of(0))), pack.place(oneGpu(), candidates));
        }

        @Test
        void multiGpuTakesTheNodeWhoseFullestCardsHaveTheLeastRoomTogether() {
            List<GpuBudget> candidates = List.of(
                    gpu("a", 0, 1_500, 0), gpu("a", 1, 60_000, 0),
                    gpu("b", 0, 9_000, 0), gpu("b", 1, 80_000, 0), gpu("b", 2, 8_000, 0));
            // a: 1.5G + 60G; b's fullest two: 9G + 8G, less room together.
            assertEquals(Optional.of(new Placement("b", List.of(0, 2))), pack.place(gpus(2), candidates));
        }

        @Test
        void multiGpuWithoutAnyNodeOfEnoughCandidatesIsEmpty() {
            List<GpuBudget> candidates = List.of(gpu("a", 0, 5_000, 0), gpu("b", 0, 5_000, 0));
            assertEquals(Optional.empty(), pack.place(gpus(2), candidates));
        }
    }

    @Test
    void spreadAndPackDisagreeOnTheSameCandidates() {
        List<GpuBudget> candidates = List.of(gpu("a", 0, 5_000, 0), gpu("a", 1, 50_000, 0));
        Placement spread = policy("spread").place(oneGpu(), candidates).orElseThrow();
        Placement pack = policy("pack").place(oneGpu(), candidates).orElseThrow();
        assertEquals(List.of(1), spread.gpuIds());
        assertEquals(List.of(0), pack.gpuIds());
        assertTrue(spread.node().equals(pack.node()));
    }
}
