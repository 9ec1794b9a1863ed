package nvidb.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for {@code nvidb.mcp..}, agents' door: the MCP SDK stays behind it. */
final class McpRules {
    private McpRules() {}

    /**
     * The SDK (and Reactor, which it brings) is named only by the MCP module and the web's
     * {@code /mcp} transport, so none of its classes loads in any other command.
     */
    @ArchTest
    static final ArchRule ONLY_THE_MCP_DOORS_NAME_THE_SDK = noClasses()
            .that().resideInAPackage("nvidb..")
            .and().resideOutsideOfPackages("nvidb.mcp..", "nvidb.web..")
            .should().dependOnClassesThat().resideInAnyPackage("io.modelcontextprotocol..", "reactor..")
            .because("job submit and every other command must not pay for the MCP SDK's classes at start-up");
}
