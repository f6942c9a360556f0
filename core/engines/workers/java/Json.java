// The JSON of the JCA worker (Worker.java, ../PROTOCOL.md).
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

// A minimal, strict JSON reader and writer for the protocol's flat messages
// (the JDK has none): objects (LinkedHashMap), arrays (List), strings,
// integers (Long), other numbers (Double), true, false and null. Anything
// else, or anything after the value, is an IllegalArgumentException naming
// the column.
final class Json {
	private final String s;
	private int at;

	private Json(String s)
	{
		this.s = s;
	}

	static Object parse(String text)
	{
		Json j = new Json(text);
		j.space();
		Object v = j.value();
		j.space();
		if (j.at != text.length())
			throw j.fail("text after the value");
		return v;
	}

	private IllegalArgumentException fail(String what)
	{
		return new IllegalArgumentException("malformed JSON at column " + (at + 1) + ": " + what);
	}

	private void space()
	{
		while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0)
			at++;
	}

	private void expect(char c)
	{
		if (at >= s.length() || s.charAt(at) != c)
			throw fail("expected '" + c + "'");
		at++;
	}

	private boolean word(String w)
	{
		if (!s.startsWith(w, at))
			return false;
		at += w.length();
		return true;
	}

	private Object value()
	{
		if (at >= s.length())
			throw fail("end of text");
		char c = s.charAt(at);
		if (c == '{')
			return object();
		if (c == '[')
			return array();
		if (c == '"')
			return string();
		if (c == '-' || (c >= '0' && c <= '9'))
			return number();
		if (word("true"))
			return Boolean.TRUE;
		if (word("false"))
			return Boolean.FALSE;
		if (word("null"))
			return null;
		throw fail("unexpected '" + c + "'");
	}

	private Map<String, Object> object()
	{
		Map<String, Object> m = new LinkedHashMap<>();
		expect('{');
		space();
		if (at < s.length() && s.charAt(at) == '}') {
			at++;
			return m;
		}
		for (;;) {
			space();
			if (at >= s.length() || s.charAt(at) != '"')
				throw fail("expected a key");
			String k = string();
			if (m.containsKey(k))
				throw fail("duplicate key \"" + k + "\"");
			space();
			expect(':');
			space();
			m.put(k, value());
			space();
			if (at < s.length() && s.charAt(at) == ',') {
				at++;
				continue;
			}
			expect('}');
			return m;
		}
	}

	private List<Object> array()
	{
		List<Object> l = new ArrayList<>();
		expect('[');
		space();
		if (at < s.length() && s.charAt(at) == ']') {
			at++;
			return l;
		}
		for (;;) {
			space();
			l.add(value());
			space();
			if (at < s.length() && s.charAt(at) == ',') {
				at++;
				continue;
			}
			expect(']');
			return l;
		}
	}

	private String string()
	{
		expect('"');
		StringBuilder b = new StringBuilder();
		for (;;) {
			if (at >= s.length())
				throw fail("unterminated string");
			char c = s.charAt(at++);
			if (c == '"')
				return b.toString();
			if (c < 0x20)
				throw fail("control character in a string");
			if (c != '\\') {
				b.append(c);
				continue;
			}
			if (at >= s.length())
				throw fail("unterminated string");
			char e = s.charAt(at++);
			switch (e) {
			case '"': case '\\': case '/': b.append(e); break;
			case 'b': b.append('\b'); break;
			case 'f': b.append('\f'); break;
			case 'n': b.append('\n'); break;
			case 'r': b.append('\r'); break;
			case 't': b.append('\t'); break;
			case 'u':
				if (at + 4 > s.length())
					throw fail("short \\u escape");
				int u = 0;
				for (int i = 0; i < 4; i++) {
					int d = Character.digit(s.charAt(at++), 16);
					if (d < 0)
						throw fail("bad \\u escape");
					u = u << 4 | d;
				}
				b.append((char)u);
				break;
			default: throw fail("bad escape \\" + e);
			}
		}
	}

	private Object number()
	{
		int start = at;
		if (s.charAt(at) == '-')
			at++;
		if (at < s.length() && s.charAt(at) == '0')
			at++;
		else if (!digits())
			throw fail("a number without digits");
		boolean integral = true;
		if (at < s.length() && s.charAt(at) == '.') {
			at++;
			integral = false;
			if (!digits())
				throw fail("no digits after '.'");
		}
		if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E')) {
			at++;
			integral = false;
			if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-'))
				at++;
			if (!digits())
				throw fail("no digits in the exponent");
		}
		String t = s.substring(start, at);
		if (integral) {
			try {
				return Long.parseLong(t);
			} catch (NumberFormatException e) {
				throw fail("integer out of range");
			}
		}
		return Double.parseDouble(t);
	}

	private boolean digits()
	{
		int start = at;
		while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9')
			at++;
		return at > start;
	}

	// The typed reads of a request's fields: a missing or mistyped field is
	// an error naming it.
	static String string(Object v, String what)
	{
		if (!(v instanceof String))
			throw new IllegalArgumentException(what + " must be a string");
		return (String)v;
	}

	static long integer(Object v, String what)
	{
		if (!(v instanceof Long))
			throw new IllegalArgumentException(what + " must be an integer");
		return (Long)v;
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> object(Object v, String what)
	{
		if (!(v instanceof Map))
			throw new IllegalArgumentException(what + " must be an object");
		return (Map<String, Object>)v;
	}

	static String write(Object v)
	{
		StringBuilder b = new StringBuilder();
		write(b, v);
		return b.toString();
	}

	private static void write(StringBuilder b, Object v)
	{
		if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Integer) {
			b.append(v);
		} else if (v instanceof String) {
			quote(b, (String)v);
		} else if (v instanceof Map) {
			b.append('{');
			String sep = "";
			for (Map.Entry<?, ?> e : ((Map<?, ?>)v).entrySet()) {
				b.append(sep);
				quote(b, (String)e.getKey());
				b.append(':');
				write(b, e.getValue());
				sep = ",";
			}
			b.append('}');
		} else if (v instanceof List) {
			b.append('[');
			String sep = "";
			for (Object x : (List<?>)v) {
				b.append(sep);
				write(b, x);
				sep = ",";
			}
			b.append(']');
		} else {
			throw new IllegalArgumentException("cannot write a " + v.getClass().getSimpleName());
		}
	}

	private static void quote(StringBuilder b, String s)
	{
		b.append('"');
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c == '"' || c == '\\')
				b.append('\\').append(c);
			else if (c < 0x20)
				b.append(String.format("\\u%04x", (int)c));
			else
				b.append(c);
		}
		b.append('"');
	}

	// MESSAGE as one line on OUT. A byte[] "output" is written last, as
	// base64 straight from the encoder (no string of it is made: a 16 MiB
	// ciphertext is 22 MB of base64).
	static void send(OutputStream out, Map<String, Object> message) throws IOException
	{
		Object output = message.get("output");
		Map<String, Object> rest = new LinkedHashMap<>(message);
		rest.remove("output");
		String head = write(rest);
		if (!(output instanceof byte[])) {
			out.write((head + "\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			return;
		}
		out.write(head.substring(0, head.length() - 1).getBytes(StandardCharsets.UTF_8));
		out.write((rest.isEmpty() ? "\"output\":\"" : ",\"output\":\"").getBytes(StandardCharsets.UTF_8));
		out.write(Base64.getEncoder().encode((byte[])output));
		out.write("\"}\n".getBytes(StandardCharsets.UTF_8));
		out.flush();
	}
}
