/**
 * What tests of every module share: real stand-ins for the outside world (a fake nvidia-smi on a
 * node's path, node fixtures, a site plugin jar builder, an HTTP endpoint for webhooks). Used only by tests.
 */
module nvidb.testkit {
    requires nvidb.spi;
    requires java.compiler;
    requires jdk.httpserver;

    exports nvidb.testkit;
}
