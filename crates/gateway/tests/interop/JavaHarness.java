// Drives the Java package's client (clients/java, printed in docs/gateway.md §8.1)
// with the same command line as the Python and Node clients.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.PublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import dev.signet.gateway.SignetGatewayClient;

public final class JavaHarness {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("seal")) {
            PublicKey gateway = SignetGatewayClient.loadGatewayKey(args[1]);
            boolean modern = args[2].equals("modern");
            String json = new String(Files.readAllBytes(Paths.get(args[3])), StandardCharsets.UTF_8).trim();
            if (modern) {
                // The payload is an object: add the Timestamp as its first member.
                json = "{\"Timestamp\":\"" + Instant.now() + "\"," + json.substring(1);
            }
            byte[] key = SignetGatewayClient.newSessionKey();
            Map<String, String> form = modern
                    ? SignetGatewayClient.sealModern(gateway, key, json)
                    : SignetGatewayClient.sealLegacy(gateway, key, json);
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<String, String> e : form.entrySet()) {
                out.append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append("\",");
            }
            StringBuilder hex = new StringBuilder();
            for (byte b : key) {
                hex.append(String.format("%02x", b));
            }
            out.append("\"SessionKey\":\"").append(hex).append("\"}");
            System.out.println(out);
        } else {
            boolean modern = args[1].equals("modern");
            byte[] key = new byte[32];
            for (int i = 0; i < 32; i++) {
                key[i] = (byte) Integer.parseInt(args[2].substring(2 * i, 2 * i + 2), 16);
            }
            byte[] plain = SignetGatewayClient.openResult(key, modern, args[3]);
            System.out.println(Base64.getEncoder().encodeToString(plain));
        }
    }
}
