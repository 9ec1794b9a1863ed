package nvidb.cli.forward;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** For tests outside this package: the bytes a forwarding client sends first, and the frame that ends its stdin. */
public final class ForwardedHeaders {
    private ForwardedHeaders() {
    }

    /** A header carrying {@code args} and {@code env} (anything: a client other than nvidb's own may send it), then END. */
    public static byte[] headerThenEnd(List<String> args, Map<String, String> env) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        ForwardProtocol.write(out, new ForwardProtocol.Header(args, env, false, "gpu-queue", List.of()));
        out.writeByte(ForwardProtocol.END);
        out.flush();
        return bytes.toByteArray();
    }
}
