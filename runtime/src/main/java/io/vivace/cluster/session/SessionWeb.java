package io.vivace.cluster.session;

import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.Date;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.yarn.server.webproxy.amfilter.AmFilterInitializer;

/**
 * The session's tracking page (YARN links to it from the application's page): the session, its
 * executors, and its jobs with their state, progress and counters ({@code job/<job id>}).
 * Read-only; it shows what the job client protocol shows.
 *
 * <p>It is an application master's page as YARN means one: served by Hadoop's web server on the
 * container's host, behind YARN's {@code AmIpFilter}, which serves only requests that come from the
 * ResourceManager's web proxy and redirects every other to the proxy (where YARN decides who may
 * see the application). So the links between its pages are relative: they are read at the proxy's
 * {@code /proxy/<application id>/}.
 */
final class SessionWeb {

  private static final String PAGE = SessionWeb.class.getName(); // the servlet context attribute holding it

  private final HttpServer2 server;
  private final SessionJobs jobs;
  private final Dispatcher dispatcher;
  private final String title;

  SessionWeb(Configuration conf, String host, SessionJobs jobs, Dispatcher dispatcher, String title)
      throws IOException {
    this.jobs = jobs;
    this.dispatcher = dispatcher;
    this.title = title;
    Configuration web = new Configuration(conf);
    // the proxy's filter alone: the cluster's own filters (its daemons' logins) are not the AM's
    web.set(HttpServer2.FILTER_INITIALIZER_PROPERTY, AmFilterInitializer.class.getName());
    this.server = new HttpServer2.Builder().setName("vivace-session").setConf(web)
        .addEndpoint(URI.create("http://" + host + ":0")).build();
    server.setAttribute(PAGE, this);
    server.addServlet("session", "/*", Page.class);
    server.start();
  }

  int port() {
    return server.getConnectorAddress(0).getPort();
  }

  void stop() throws Exception {
    server.stop();
  }

  /** The pages, read by Hadoop's web server (which makes it with no arguments). */
  public static final class Page extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
      ((SessionWeb) getServletContext().getAttribute(PAGE)).handle(request, response);
    }
  }

  private void handle(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "/" : request.getPathInfo();
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
    response.setStatus(status);
    response.setContentType("text/html; charset=utf-8");
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
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
      html.append("<tr><td><a href=\"job/").append(s.getJobID()).append("\">").append(s.getJobID())
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
    html.append("</table><p><a href=\"../\">session</a></p>");
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
