package io.vivace.cluster.session;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.concurrent.Executors;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * The session's tracking page (YARN links to it from the application's page): the session, its
 * executors, and its jobs with their state, progress and counters ({@code /job/<job id>}).
 * Read-only; it shows what the job client protocol shows.
 */
final class SessionWeb {

  private final HttpServer server;
  private final SessionJobs jobs;
  private final Dispatcher dispatcher;
  private final String title;

  SessionWeb(String host, SessionJobs jobs, Dispatcher dispatcher, String title) throws IOException {
    this.jobs = jobs;
    this.dispatcher = dispatcher;
    this.title = title;
    this.server = HttpServer.create(new InetSocketAddress(host, 0), 16);
    server.setExecutor(Executors.newFixedThreadPool(2, SessionMaster.daemonThreads("vivace-session-web-")));
    server.createContext("/", this::handle);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(escape(title)).append("</title></head><body>");
    int status = 200;
    if (path.equals("/")) {
      overview(html);
    } else if (path.startsWith("/job/")) {
      JobRun job = null;
      try {
        job = jobs.job(JobID.forName(path.substring("/job/".length())));
      } catch (IllegalArgumentException notAJobId) {
        // below
      }
      if (job == null) {
        status = 404;
        html.append("<p>No such job in this session.</p>");
      } else {
        job(html, job);
      }
    } else {
      status = 404;
      html.append("<p>Not found.</p>");
    }
    byte[] body = html.append("</body></html>").toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private void overview(StringBuilder html) {
    html.append("<h1>").append(escape(title)).append("</h1><h2>Executors</h2><ul>");
    for (String load : dispatcher.executorLoads()) {
      html.append("<li>").append(escape(load)).append("</li>");
    }
    html.append("</ul><h2>Jobs</h2><table border=\"1\"><tr><th>job</th><th>name</th><th>user</th>"
        + "<th>state</th><th>map</th><th>reduce</th><th>submitted</th><th>finished</th></tr>");
    for (JobRun job : jobs.jobs()) {
      JobStatus s = job.status();
      html.append("<tr><td><a href=\"/job/").append(s.getJobID()).append("\">").append(s.getJobID())
          .append("</a></td><td>").append(escape(s.getJobName())).append("</td><td>").append(escape(s.getUsername()))
          .append("</td><td>").append(s.getState()).append("</td><td>").append(percent(s.getMapProgress()))
          .append("</td><td>").append(percent(s.getReduceProgress())).append("</td><td>")
          .append(time(s.getStartTime())).append("</td><td>").append(time(s.getFinishTime())).append("</td></tr>");
    }
    html.append("</table>");
  }

  private void job(StringBuilder html, JobRun job) {
    JobStatus s = job.status();
    html.append("<h1>").append(s.getJobID()).append(" ").append(escape(s.getJobName())).append("</h1><p>")
        .append(s.getState()).append(", map ").append(percent(s.getMapProgress())).append(", reduce ")
        .append(percent(s.getReduceProgress())).append("</p>");
    if (s.getFailureInfo() != null && !s.getFailureInfo().isEmpty()) {
      html.append("<pre>").append(escape(s.getFailureInfo())).append("</pre>");
    }
    html.append("<h2>Counters</h2><table border=\"1\">");
    for (CounterGroup group : job.counters()) {
      for (Counter counter : group) {
        html.append("<tr><td>").append(escape(group.getDisplayName())).append("</td><td>")
            .append(escape(counter.getDisplayName())).append("</td><td>").append(counter.getValue()).append("</td></tr>");
      }
    }
    html.append("</table><p><a href=\"/\">session</a></p>");
  }

  private static String percent(float progress) {
    return Math.round(progress * 100) + "%";
  }

  private static String time(long millis) {
    return millis <= 0 ? "" : new SimpleDateFormat("yyyy-MM-dd HH:mm:ss").format(new Date(millis));
  }

  private static String escape(String text) {
    return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
