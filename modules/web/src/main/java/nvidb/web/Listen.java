package nvidb.web;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import nvidb.core.api.NvidbException;

/** A {@code HOST:PORT} to listen on ({@code [::1]:PORT} for IPv6), resolved once. */
record Listen(String host, int port, InetSocketAddress address) {
    /** The default: loopback only. */
    static final String DEFAULT = "127.0.0.1:8765";

    static Listen parse(String text) {
        int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw bad(text, "it is not HOST:PORT");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw bad(text, "the port is not a number");
        }
        if (port < 0 || port > 65_535) {
            throw bad(text, "the port is not between 0 and 65535");
        }
        try {
            return new Listen(host, port, new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (UnknownHostException e) {
            throw bad(text, "the host " + host + " does not resolve");
        }
    }

    private static NvidbException bad(String text, String why) {
        return NvidbException.usage("--listen takes HOST:PORT such as " + DEFAULT + ", not '" + text + "': " + why);
    }

    boolean loopback() {
        return address.getAddress().isLoopbackAddress();
    }
}
