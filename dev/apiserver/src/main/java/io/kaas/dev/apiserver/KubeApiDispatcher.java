package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes fabric8's CRUD store answer like kube-apiserver, request by request. In order: canned answers set with
 * {@code expect()} win; bodies kubectl sends as protobuf or CBOR get 415 (the store cannot read them and never
 * answered); {@code /version}, discovery and OpenAPI are answered from the {@link ResourceCatalog}; access reviews are
 * allowed; GETs go to the store, as Tables when asked; watches go to the store, their events translated; writes go to
 * the store one at a time, with the query string removed (the store tests {@code path.endsWith("/status")} on the
 * path with its query, and would drop a status patch sent with {@code ?fieldManager=}), PATCHes through the
 * {@link PatchTranslator}. A 404 from the store names the missing object, as kube-apiserver's does.
 */
final class KubeApiDispatcher extends Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(KubeApiDispatcher.class);
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private final Map<ServerRequest, Queue<ServerResponse>> expectations;
    private final MockDispatcher canned;
    private final KubernetesCrudDispatcher store = new KubernetesCrudDispatcher();
    private final ResourceCatalog catalog = new ResourceCatalog(this::storedDefinitions);
    private final DiscoveryResponder discovery = new DiscoveryResponder(catalog);
    private final OpenApiResponder openApi = new OpenApiResponder(catalog);
    private final AccessReviewResponder reviews = new AccessReviewResponder();
    private final PatchTranslator patches = new PatchTranslator(store);
    private final TableRenderer tables;
    /** Writes one at a time, so a patch's read and its PUT see no write between them. */
    private final ReentrantLock writes = new ReentrantLock();

    /**
     * @param expectations canned answers, filled by {@code expect()}, matched on method and path with query
     * @param clock        the "now" of Age columns
     */
    KubeApiDispatcher(Map<ServerRequest, Queue<ServerResponse>> expectations, Clock clock) {
        this.expectations = expectations;
        this.canned = new MockDispatcher(expectations);
        this.tables = new TableRenderer(clock);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Queue<ServerResponse> queue = expectations.get(new SimpleRequest(request.method(), request.getPath()));
        if (queue != null && !queue.isEmpty()) {
            return canned.dispatch(request);
        }
        MockResponse response;
        try {
            response = route(request);
        } catch (IllegalArgumentException e) {
            response = Responses.failure(400, "BadRequest", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("{} failed", request, e);
            response = Responses.failure(500, "InternalError", request + " failed: " + e);
        }
        if (response.getBody() != null && response.getBody().size() > 0
                && response.header(Responses.CONTENT_TYPE) == null) {
            response.setHeader(Responses.CONTENT_TYPE, Responses.JSON);
        }
        return response;
    }

    private MockResponse route(RecordedRequest request) {
        Query query = Query.of(request.getPath());
        String path = query.path();
        byte[] body = StoreRequests.body(request);
        String contentType = PatchTranslator.mediaType(request.getHeader(Responses.CONTENT_TYPE));
        if (body.length > 0 && (contentType.contains("protobuf") || contentType.contains("cbor"))) {
            return Responses.failure(415, "UnsupportedMediaType",
                    "the development API server reads JSON and YAML bodies only, not " + contentType);
        }
        HttpMethod method = request.method();
        if (method == HttpMethod.GET) {
            Optional<MockResponse> described = discovery.answer(path).or(() -> openApi.answer(path));
            if (described.isPresent()) {
                return described.get();
            }
        }
        if (method == HttpMethod.POST) {
            Optional<MockResponse> review = reviews.answer(path, body);
            if (review.isPresent()) {
                return review.get();
            }
        }
        Optional<ResourcePath> resource = ResourcePath.parse(path);
        if (method == HttpMethod.GET) {
            return named404(read(request, query, resource), resource);
        }
        if (query.has("dryRun")) {
            return Responses.failure(400, "BadRequest", "the development API server does not do dry runs");
        }
        writes.lock();
        try {
            MockResponse response = switch (method) {
                case PATCH -> resource.map(target -> patches.patch(request, target, path))
                        .orElseGet(() -> Responses.failure(404, "NotFound", "no resource at " + path));
                case POST, PUT -> store.dispatch(StoreRequests.atPath(request, path));
                case DELETE -> store.dispatch(request);
                default -> Responses.failure(405, "MethodNotAllowed", method + " is not served");
            };
            return named404(response, resource);
        } finally {
            writes.unlock();
        }
    }

    private MockResponse read(RecordedRequest request, Query query, Optional<ResourcePath> resource) {
        String tableVersion = TableRenderer.requestedVersion(request.getHeader("Accept"));
        if (query.isWatch()) {
            return watch(request, query, resource, tableVersion);
        }
        MockResponse stored = store.dispatch(request);
        if (tableVersion == null || stored.code() != 200 || resource.isEmpty()) {
            return stored;
        }
        JsonNode body = Json.read(StoreRequests.body(stored));
        List<JsonNode> objects = new ArrayList<>();
        if (body.has("items")) {
            body.get("items").forEach(objects::add);
            objects.sort(Comparator.comparing((JsonNode o) -> o.path("metadata").path("namespace").asText())
                    .thenComparing(o -> o.path("metadata").path("name").asText()));
        } else {
            objects.add(body);
        }
        String resourceVersion = body.path("metadata").path("resourceVersion").asText(null);
        return Responses.json(200, tables.render(tableVersion, objects, columns(resource.get()),
                TableRenderer.IncludeObject.of(query.get("includeObject")), resourceVersion));
    }

    private MockResponse watch(RecordedRequest request, Query query, Optional<ResourcePath> resource,
            String tableVersion) {
        MockResponse stored = store.dispatch(request);
        WebSocketListener storeWatch = stored.getWebSocketListener();
        if (storeWatch == null) {
            return stored;
        }
        // Over WebSocket (fabric8 clients and informers) the store's replay is kept as it always was; over plain
        // HTTP (kubectl, client-go) the client listed first and starts from that list's version.
        boolean plainHttp = !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
        long seen = plainHttp ? parseVersion(query.get("resourceVersion")) : 0;
        UnaryOperator<JsonNode> view = UnaryOperator.identity();
        if (tableVersion != null && resource.isPresent()) {
            List<PrinterColumn> columns = columns(resource.get());
            TableRenderer.IncludeObject include = TableRenderer.IncludeObject.of(query.get("includeObject"));
            view = object -> tables.render(tableVersion, List.of(object), columns, include,
                    object.path("metadata").path("resourceVersion").asText(null));
        } else if (seen == 0) {
            return stored;
        }
        return new MockResponse().setResponseCode(200).withWebSocketUpgrade(new WatchTranslator(storeWatch, seen, view));
    }

    private List<PrinterColumn> columns(ResourcePath resource) {
        return catalog.find(resource.group(), resource.version(), resource.plural()).map(ApiResource::columns)
                .orElse(List.of(PrinterColumn.age()));
    }

    /** The store answers a missing object with an empty 404; kube-apiserver names it, and kubectl prints that. */
    private static MockResponse named404(MockResponse response, Optional<ResourcePath> resource) {
        boolean empty = response.getBody() == null || response.getBody().size() == 0;
        if (response.code() == 404 && empty && resource.isPresent() && resource.get().name() != null) {
            return Responses.notFound(resource.get());
        }
        return response;
    }

    private static long parseVersion(String resourceVersion) {
        try {
            return resourceVersion == null ? 0 : Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The CRDs in the store now. */
    private List<CustomResourceDefinition> storedDefinitions() {
        MockResponse stored = store.dispatch(StoreRequests.get(CRDS));
        List<CustomResourceDefinition> definitions = new ArrayList<>();
        if (stored.code() == 200) {
            for (JsonNode item : Json.read(StoreRequests.body(stored)).path("items")) {
                definitions.add(Serialization.unmarshal(Json.write(item), CustomResourceDefinition.class));
            }
        }
        return definitions;
    }

    /** Stores {@code object} (JSON) by POSTing it to {@code collectionPath}, as a client would. */
    MockResponse create(String collectionPath, String object) {
        return dispatch(StoreRequests.withBody(HttpMethod.POST, collectionPath, Responses.JSON, object));
    }
}
