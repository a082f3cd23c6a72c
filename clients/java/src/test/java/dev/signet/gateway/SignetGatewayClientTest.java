package dev.signet.gateway;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.spec.MGF1ParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * The helper's own tests, with the JDK only (no test framework): each envelope is opened here the
 * way the gateway opens it (docs/gateway.md §3-5), so a change that breaks the wire fails here
 * before it reaches the interop test against the real gateway. Run:
 * {@code javac -d out $(find src -name '*.java') && java -cp out dev.signet.gateway.SignetGatewayClientTest}
 * (it prints "ok" and exits 0, or names the failed check and exits 1).
 */
public final class SignetGatewayClientTest {
    private static final String PAYLOAD =
            "{\"Filetype\":\"PDF\",\"ReferenceNumber\":\"JAVA-0001\",\"Name\":\"Asha Rao \u2014 \u2713\"}";

    public static void main(String[] args) throws Exception {
        KeyPair gateway = rsaKeyPair();
        legacyEnvelopeOpensAsTheGatewayOpensIt(gateway);
        modernEnvelopeOpensAsTheGatewayOpensIt(gateway);
        everyRequestHasItsOwnSessionKey();
        resultsOpenInBothProfiles();
        aTamperedModernResultIsRefused();
        aReturnvalueWithSpacesForPlusOpens();
        System.out.println("ok");
    }

    private static void legacyEnvelopeOpensAsTheGatewayOpensIt(KeyPair gateway) throws Exception {
        byte[] session = SignetGatewayClient.newSessionKey();
        Map<String, String> form = SignetGatewayClient.sealLegacy(gateway.getPublic(), session, PAYLOAD);
        check(!form.containsKey("Profile"), "the legacy form names no profile");
        Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
        rsa.init(Cipher.DECRYPT_MODE, gateway.getPrivate());
        check(Arrays.equals(rsa.doFinal(b64(form.get("Parameter1"))), session), "P1 carries the session key");
        byte[] json = ecbOpen(session, b64(form.get("Parameter2")));
        check(new String(json, StandardCharsets.UTF_8).equals(PAYLOAD), "P2 is the payload, byte for byte");
        check(Arrays.equals(ecbOpen(session, b64(form.get("Parameter3"))), sha256(json)), "P3 is SHA-256 of P2");
    }

    private static void modernEnvelopeOpensAsTheGatewayOpensIt(KeyPair gateway) throws Exception {
        byte[] session = SignetGatewayClient.newSessionKey();
        Map<String, String> form = SignetGatewayClient.sealModern(gateway.getPublic(), session, PAYLOAD);
        check("2".equals(form.get("Profile")), "the modern form says Profile 2");
        check(Arrays.equals(oaepOpen(gateway.getPrivate(), b64(form.get("Parameter1"))), session),
                "P1 is RSA-OAEP with SHA-256 and MGF1-SHA-256");
        byte[] json = gcmOpen(session, b64(form.get("Parameter2")));
        check(new String(json, StandardCharsets.UTF_8).equals(PAYLOAD), "P2 is the payload, byte for byte");
        check(Arrays.equals(gcmOpen(session, b64(form.get("Parameter3"))), sha256(json)), "P3 is SHA-256 of P2");
        byte[] p2 = b64(form.get("Parameter2"));
        byte[] again = b64(SignetGatewayClient.sealModern(gateway.getPublic(), session, PAYLOAD).get("Parameter2"));
        check(!Arrays.equals(Arrays.copyOf(p2, 12), Arrays.copyOf(again, 12)), "every seal has a fresh nonce");
    }

    private static void everyRequestHasItsOwnSessionKey() {
        byte[] a = SignetGatewayClient.newSessionKey();
        byte[] b = SignetGatewayClient.newSessionKey();
        check(a.length == 32 && !Arrays.equals(a, b), "32 random bytes per request");
    }

    private static void resultsOpenInBothProfiles() throws Exception {
        byte[] session = SignetGatewayClient.newSessionKey();
        byte[] signed = new byte[70_000];
        for (int i = 0; i < signed.length; i++) {
            signed[i] = (byte) (i * 7 % 251);
        }
        String legacy = Base64.getEncoder().encodeToString(ecbSeal(session, signed));
        check(Arrays.equals(SignetGatewayClient.openResult(session, false, legacy), signed), "legacy result opens");
        String modern = Base64.getEncoder().encodeToString(gcmSeal(session, signed));
        check(Arrays.equals(SignetGatewayClient.openResult(session, true, modern), signed), "modern result opens");
    }

    private static void aTamperedModernResultIsRefused() throws Exception {
        byte[] session = SignetGatewayClient.newSessionKey();
        byte[] sealed = gcmSeal(session, "%PDF-1.7".getBytes(StandardCharsets.US_ASCII));
        sealed[sealed.length - 1] ^= 1;
        try {
            SignetGatewayClient.openResult(session, true, Base64.getEncoder().encodeToString(sealed));
            check(false, "a tampered result must not open");
        } catch (AEADBadTagException expected) {
            // the tag check refused it
        }
    }

    private static void aReturnvalueWithSpacesForPlusOpens() throws Exception {
        byte[] session = SignetGatewayClient.newSessionKey();
        boolean inside = false;
        boolean atAnEnd = false;
        for (int n = 0; n < 2000 && !(inside && atAnEnd); n++) {
            byte[] plain = new byte[n % 64 + 1];
            Arrays.fill(plain, (byte) 0xfb);
            String rv = Base64.getEncoder().encodeToString(gcmSeal(session, plain));
            String unpadded = rv.replaceAll("=+$", "");
            if (!unpadded.contains("+")) {
                continue;
            }
            boolean end = unpadded.startsWith("+") || unpadded.endsWith("+");
            String mangled = unpadded.replace('+', ' ') + "\r\n";
            check(Arrays.equals(SignetGatewayClient.openResult(session, true, mangled), plain),
                    "a '+' turned into ' ', stripped padding and a line break still open: " + mangled);
            inside |= !end;
            atAnEnd |= end;
        }
        check(inside && atAnEnd, "samples with '+' inside and at an end");
    }

    private static KeyPair rsaKeyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static byte[] oaepOpen(PrivateKey key, byte[] data) throws Exception {
        Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
        rsa.init(Cipher.DECRYPT_MODE, key,
                new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
        return rsa.doFinal(data);
    }

    private static byte[] ecbOpen(byte[] key, byte[] data) throws Exception {
        return ecb(Cipher.DECRYPT_MODE, key, data);
    }

    private static byte[] ecbSeal(byte[] key, byte[] data) throws Exception {
        return ecb(Cipher.ENCRYPT_MODE, key, data);
    }

    private static byte[] ecb(int mode, byte[] key, byte[] data) throws Exception {
        Cipher aes = Cipher.getInstance("AES/ECB/PKCS5Padding");
        aes.init(mode, new SecretKeySpec(key, "AES"));
        return aes.doFinal(data);
    }

    private static byte[] gcmSeal(byte[] key, byte[] data) throws Exception {
        byte[] nonce = SignetGatewayClient.newSessionKey();
        nonce = Arrays.copyOf(nonce, 12);
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        byte[] sealed = gcm.doFinal(data);
        byte[] out = Arrays.copyOf(nonce, 12 + sealed.length);
        System.arraycopy(sealed, 0, out, 12, sealed.length);
        return out;
    }

    private static byte[] gcmOpen(byte[] key, byte[] data) throws Exception {
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                new GCMParameterSpec(128, Arrays.copyOfRange(data, 0, 12)));
        return gcm.doFinal(data, 12, data.length - 12);
    }

    private static byte[] sha256(byte[] data) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    private static byte[] b64(String text) {
        return Base64.getDecoder().decode(text);
    }

    private static void check(boolean holds, String what) {
        if (!holds) {
            System.out.println("FAILED: " + what);
            System.exit(1);
        }
    }

    private SignetGatewayClientTest() {}
}
